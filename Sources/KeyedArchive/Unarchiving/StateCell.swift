// Sources/KeyedArchive/Unarchiving/StateCell.swift - The unarchiver's (and the archiver's) mutable
// state, without the run-time exclusivity checks of a class's stored property (release builds).
//
// Fenced (scripts/check-unsafe). Every field decode reads and writes `KeyedUnarchiver.state` a few
// times (the frame stack, the key path, the class slots). As a stored `var` of a class, each of
// those accesses is checked for exclusivity at run time (`swift_beginAccess`/`swift_endAccess` and a
// thread-local access set): measured, 18 % of an unarchive's instructions. In release builds the
// state lives in one heap cell owned by the unarchiver instead, and `state` is a computed property
// whose addressors hand out that cell's address, which Swift does not check at run time.
//
// Why this is sound:
// - Lifetime: the cell is allocated and initialised in the unarchiver's initialiser and
//   deinitialised and freed in its deinit; `state` is reachable only through the unarchiver, so the
//   address is never used outside the cell's lifetime. (The same holds for `KeyedArchiver`, which
//   keeps its encoding state in a cell of its own: every encoded field touches it a few times too.)
// - Exclusivity: what the run-time checks would catch is two overlapping accesses to `state` (a
//   mutation of it still in progress when another access begins, e.g. through a call made from
//   inside a `modify`). Debug builds keep `state` a stored property, so the whole test suite runs
//   with every access checked: any overlap traps there. The unarchiver is not `Sendable`, so no
//   access comes from another thread (neither is the archiver). Release builds rely on that, as they
//   do on the unchanged code.

#if !DEBUG
    /// One heap cell holding an archiver's or unarchiver's `State` (or the unarchiver's lent reader,
    /// see LentInput.swift), owned by exactly one of them.
    @safe struct StateCell<State: ~Copyable> {
        private let cell: UnsafeMutablePointer<State>

        /// A cell holding `state`.
        init(_ state: consuming State) {
            let cell = UnsafeMutablePointer<State>.allocate(capacity: 1)
            unsafe cell.initialize(to: state)
            unsafe self.cell = cell
        }

        /// Ends the cell's life: called once, from the owner's deinit.
        func destroy() {
            unsafe cell.deinitialize(count: 1)
            unsafe cell.deallocate()
        }

        /// The cell's address, valid until `destroy()`.
        var mutableAddress: UnsafeMutablePointer<State> { unsafe cell }
        var address: UnsafePointer<State> { unsafe UnsafePointer(cell) }
    }

    extension KeyedUnarchiver {
        /// The decoding state (see the file header).
        var state: State {
            unsafeAddress { unsafe stateCell.address }
            unsafeMutableAddress { unsafe stateCell.mutableAddress }
        }
    }

    extension KeyedArchiver {
        /// The encoding state (see the file header): the same cell and the same argument as the
        /// unarchiver's. Measured on the people workload's archive: 18 % of its instructions were the
        /// exclusivity checks of the stored property.
        var state: State {
            unsafeAddress { unsafe stateCell.address }
            unsafeMutableAddress { unsafe stateCell.mutableAddress }
        }
    }
#endif
