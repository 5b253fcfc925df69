// Tests/TypedStreamTests/Fixtures/MessageFixtures.swift - Messages `attributedBody` streams written
// byte by byte from the layout (S<n>: shared string n; O<n>: object-table entry n; a reference byte
// is 0x92 + n).

enum MessageFixtures {
    /// "hi", one run: part 0. The layout of a one-part text message.
    static let hi = """
        \(header)
        84 01 "@"                            // S0 "@"
        84                                   // O0: object 0, the root
        84 84 12 "NSAttributedString" 00     // O1: class NSAttributedString (S1) v0
        84 84 08 "NSObject" 00 85            // O2: class NSObject (S2) v0
        92 84                                // "@", O3: object 1, the text
        84 84 08 "NSString" 01 94            // O4: class NSString (S3) v1, superclass O2
        84 01 "+" 02 "hi"                    // S4 "+"
        86
        84 02 "iI" 01 02                     // S5 "iI": dictionary 1, 2 UTF-16 units
        92 84                                // O5: object 2, dictionary 1
        84 84 0c "NSDictionary" 00 94        // O6: class NSDictionary (S6)
        84 01 "i" 01                         // S7 "i": one pair
        92 84 96 96 1d "__kIMMessagePartAttributeName" 86   // O7: object 3, class O4, "+" S4
        92 84                                // O8: object 4, NSNumber
        84 84 08 "NSNumber" 00               // O9: class NSNumber (S8)
        84 84 07 "NSValue" 00 94             // O10: class NSValue (S9)
        84 01 "*" 84 99                      // S10 "*": new C string O11, text S7 "i"
        99 00                                // "i": part 0
        86 86 86                             // end of O8, O5, O0
        """

    /// A mutable body of two parts: an attachment (U+FFFC), then "hi Sam, see https://ex.test/x" with
    /// a mention of Sam, a link in bold, and a run ("`, see `") that reuses dictionary 2.
    static let threeParts = """
        \(header)
        84 01 "@"                                    // S0
        84                                           // O0: object 0, the root
        84 84 19 "NSMutableAttributedString" 00      // O1: class (S1)
        84 84 12 "NSAttributedString" 00             // O2: class (S2)
        84 84 08 "NSObject" 00 85                    // O3: class (S3)
        92 84                                        // O4: object 1, the text
        84 84 0f "NSMutableString" 01                // O5: class (S4) v1
        84 84 08 "NSString" 01 95                    // O6: class NSString (S5) v1, superclass O3
        84 01 "+" 20 ef bf bc "hi Sam, see https://ex.test/x"   // S6 "+": 32 bytes
        86
        84 02 "iI" 01 01                             // S7 "iI": dictionary 1, 1 unit (U+FFFC)
        92 84                                        // O7: object 2, dictionary 1
        84 84 0c "NSDictionary" 00 95                // O8: class NSDictionary (S8)
        84 01 "i" 02                                 // S9 "i": two pairs
        92 84 98 98 22 "__kIMFileTransferGUIDAttributeName" 86  // O9: object 3
        92 84 98 98 09 "AT_0_GUID" 86                // O10: object 4
        92 84 98 98 1d "__kIMMessagePartAttributeName" 86       // O11: object 5
        92 84                                        // O12: object 6, NSNumber 0
        84 84 08 "NSNumber" 00                       // O13: class (S10)
        84 84 07 "NSValue" 00 95                     // O14: class (S11)
        84 01 "*" 84 9b                              // S12 "*": new C string O15, text S9 "i"
        9b 00                                        // "i": 0
        86
        86                                           // end of dictionary 1
        99 02 03                                     // "iI": dictionary 2 (new), 3 units: "hi "
        92 84 9a                                     // O16: object 7, class O8
        9b 01                                        // one pair
        92 84 98 98 1d "__kIMMessagePartAttributeName" 86       // O17: object 8
        92 84 9f 9e a1 9b 01 86                      // O18: object 9, NSNumber (class O13): "*" S12, C string O15, "i" 1
        86
        99 03 03                                     // dictionary 3 (new), 3 units: "Sam"
        92 84 9a                                     // O19: object 10
        9b 02
        92 a3 92 a4                                  // the part key (O17) and 1 (O18), shared
        92 84 98 98 1c "__kIMMentionConfirmedMention" 86        // O20: object 11
        92 84 98 98 09 "+15550100" 86                // O21: object 12
        86
        99 02 06                                     // dictionary 2 again, 6 units: ", see "
        99 04 11                                     // dictionary 4 (new), 17 units: the link
        92 84 9a                                     // O22: object 13
        9b 03
        92 a3 92 a4
        92 84 98 98 16 "__kIMLinkAttributeName" 86   // O23: object 14
        92 84                                        // O24: object 15, NSURL
        84 84 05 "NSURL" 00 95                       // O25: class NSURL (S13)
        84 01 "c" 00                                 // S14 "c": not relative
        92 84 98 98 11 "https://ex.test/x" 86        // O26: object 16
        86
        92 84 98 98 1a "__kIMTextBoldAttributeName" 86          // O27: object 17
        92 a4                                        // 1
        86
        86                                           // end of the root
        """
}
