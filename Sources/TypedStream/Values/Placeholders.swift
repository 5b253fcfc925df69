// Sources/TypedStream/Values/Placeholders.swift - What both typed-value decoders (StreamingDecoder,
// TypedValueDecoder) do with an object of a value class that an instance names while the object is
// still open around it: hand out a placeholder instance, remember which instances hold one, and once
// every object has ended put the object's value where its placeholder stood.

import KeyedArchive

struct Placeholders {
    /// Whether an instance is being filled (only then is an open value-class object a placeholder).
    private(set) var filling = false
    private var placeholderOf: [Int: ArchivedInstance] = [:]
    private var objectOf: [ObjectIdentifier: Int] = [:]
    /// The instances that hold placeholders.
    private var patched: [ArchivedInstance] = []
    private var uses = 0

    /// The placeholder of open object `number` (created once), counted as handed out.
    mutating func use(_ number: Int) -> ArchivedInstance {
        uses += 1
        if let known = placeholderOf[number] { return known }
        let p = ArchivedInstance(className: "", classChain: [])
        placeholderOf[number] = p
        objectOf[ObjectIdentifier(p)] = number
        return p
    }

    /// Starts filling an instance; returns what ``endFilling(_:since:)`` compares with.
    mutating func beginFilling() -> Int {
        filling = true
        return uses
    }

    /// Ends filling `instance`, which holds placeholders when any was handed out since `before`.
    mutating func endFilling(_ instance: ArchivedInstance, since before: Int) {
        filling = false
        if uses != before { patched.append(instance) }
    }

    /// Replaces every placeholder held by an instance (in its values, and in arrays among them) by
    /// `value(number)` of its object; every object has ended, so a missing value is `null`.
    func replace(_ value: (Int) -> AnyArchived?) {
        func resolved(_ v: AnyArchived) -> AnyArchived {
            switch v {
            case .object(let i):
                guard let n = objectOf[ObjectIdentifier(i)] else { return v }
                return value(n) ?? .null
            case .array(let items): return .array(items.map(resolved))
            default: return v
            }
        }
        for instance in patched { instance.unkeyed = instance.unkeyed.map(resolved) }
    }
}
