// Tests/TypedStreamTests/Fixtures/TypedFixtures.swift - Streams of Foundation and AppKit classes,
// written byte by byte from the layouts (S<n>: entry n of the shared-string table; O<n>: entry n of
// the object table; a reference byte is 0x92 + n).

enum TypedFixtures {
    /// An NSArray of one of each Foundation value class, and an object of an unknown class.
    static let foundation = """
        \(header)
        84 01 "@"                            // S0 "@"
        84                                   // O0: object 0, the root NSArray
        84 84 07 "NSArray" 00                // O1: class NSArray (S1) v0
        84 84 08 "NSObject" 00 85            // O2: class NSObject (S2) v0, a root
        84 01 "i" 0f                         // S3 "i": 15 elements
        92 84                                // "@", O3: object 1
        84 84 08 "NSString" 01 94            // O4: class NSString (S4) v1, superclass O2
        84 01 "+" 02 c3 a9                   // S5 "+": "é" in UTF-8
        86
        92 84                                // O5: object 2
        84 84 0d "NSMutableData" 00          // O6: class NSMutableData (S6)
        84 84 06 "NSData" 00 94              // O7: class NSData (S7), superclass O2
        95 03                                // "i" (S3): length 3
        84 04 "[3c]" 01 02 03                // S8 "[3c]": the bytes
        86
        92 84                                // O8: object 3
        84 84 08 "NSNumber" 00               // O9: class NSNumber (S9)
        84 84 07 "NSValue" 00 94             // O10: class NSValue (S10), superclass O2
        84 01 "*" 84 95                      // S11 "*": a new C string (O11) whose text is S3 "i"
        95 2a                                // "i": 42
        86
        92 84 9b                             // O12: object 4, class O9 (NSNumber)
        9d 84 84 01 "q"                      // "*" (S11): new C string O13, text new S12 "q"
        9e 87 00 00 00 00 00 01 00 00        // "q" (S12): 2^40 as an int64
        86
        92 84 9b                             // O14: object 5
        9d 84 84 01 "c"                      // new C string O15, text S13 "c"
        9f 01                                // "c" (S13): 1, a BOOL
        86
        92 84 9b                             // O16: object 6
        9d 84 84 01 "d"                      // new C string O17, text S14 "d"
        a0 83 00 00 00 00 00 00 04 40        // "d" (S14): 2.5
        86
        92 84                                // O18: object 7
        84 84 06 "NSDate" 00 94              // O19: class NSDate (S15), superclass O2
        a0 83 00 00 00 00 00 00 25 40        // "d": 10.5 seconds after 2001-01-01
        86
        92 84                                // O20: object 8
        84 84 05 "NSURL" 00 94               // O21: class NSURL (S16)
        9f 00                                // "c": 0, not relative
        92 84 96                             // "@", O22: object 9, class O4 (NSString)
        97 16 "https://example.com/a/"       // "+" (S5): 22 bytes
        86
        86
        92 84 a7                             // O23: object 10, class O21 (NSURL)
        9f 01                                // "c": 1, relative
        92 a6                                // "@": the base, O20 (object 8)
        92 84 96 97 03 "b/c" 86              // O24: object 11, NSString "b/c"
        86
        92 84                                // O25: object 12
        84 84 0c "NSDictionary" 00 94        // O26: class NSDictionary (S17)
        95 01                                // "i": one pair
        92 84 96 97 01 "k" 86                // O27: object 13, the key
        92 84 96 97 01 "v" 86                // O28: object 14, the value
        86
        92 84                                // O29: object 15
        84 84 05 "NSSet" 00 94               // O30: class NSSet (S18)
        84 01 "I" 02                         // S19 "I": two members
        92 9a                                // "@": O8 (object 3, 42)
        92 84 9b 9d 9d 95 07 86              // O31: object 16, NSNumber: "*" C string O11 ("i"), "i" 7
        86
        92 84 9c                             // O32: object 17, class O10 (NSValue)
        9d 84 84 20 "{CGRect={CGPoint=dd}{CGSize=dd}}"   // C string O33, text S20
        a6 01 02 83 00 00 00 00 00 00 0c 40 04           // S20: {{1, 2}, {3.5, 4}}
        86
        92 84 9c                             // O34: object 18, NSValue
        9d 84 84 0d "{_NSRange=QQ}"          // C string O35, text S21
        a7 05 0a                             // S21: {5, 10}
        86
        92 84                                // O36: object 19
        84 84 06 "NSNull" 00 94 86           // O37: class NSNull (S22), no values
        92 84                                // O38: object 20
        84 84 08 "XYZThing" 03 94            // O39: class XYZThing (S23) v3
        84 02 "i@" 07 95                     // S24 "i@": 7, and O3 (object 1, "é") again
        86
        86                                   // end of the root
        """

    /// A colour list (.clr): three colours, the third the first again.
    static let colors = """
        \(header)
        84 01 "i" 01                         // S0 "i": the format's version, 1
        84 02 "@i" 85 03                     // S1 "@i": no name, 3 colours
        84 02 "@@"                           // S2 "@@": a colour and its key
        84 84 84 07 "NSColor" 00             // O0: object 0; O1: class NSColor (S3)
        84 84 08 "NSObject" 00 85            // O2: class NSObject (S4)
        84 01 "c" 01                         // S5 "c": kind 1, calibrated RGB
        84 04 "ffff" 83 9a 99 99 3e 83 9a 99 19 3f 00 01   // S6 "ffff": 0.3 0.6 0 1
        86
        84 84 84 08 "NSString" 01 94         // O3: object 1; O4: class NSString (S7), superclass O2
        84 01 "+" 03 "Red"                   // S8 "+"
        86
        94                                   // "@@"
        84 93 97 03                          // O5: object 2, NSColor: "c" 3, calibrated white
        84 02 "ff" 83 00 00 00 3f 01         // S9 "ff": 0.5 1
        86
        84 96 9a 04 "Gray" 86                // O6: object 3, NSString "Gray"
        94                                   // "@@"
        92                                   // O0: the first colour again
        84 96 9a 05 "Again" 86               // O7: object 4
        """

    /// An NSFont (v30): "Helvetica" 12pt, the name a serialized property list (UTF-16, type 6).
    static let font = """
        \(header)
        84 01 "@"
        84 84 84 06 "NSFont" 1e              // O0: object 0; O1: class NSFont (S1) v30
        84 84 08 "NSObject" 00 85            // O2: class NSObject
        84 01 "i" 1c                         // 28 bytes of serialized property list
        84 05 "[28c]"
        06 00 00 00 14 00 00 00              // type 6 (UTF-16 string), 20 bytes
        ff fe 48 00 65 00 6c 00 76 00 65 00 74 00 69 00 63 00 61 00   // BOM, "Helvetica"
        84 01 "f" 0c                         // size 12, a whole real written as an integer
        84 01 "c" 00 98 00 98 00 98 10       // four flag bytes: 0 0 0 16
        86
        """
}
