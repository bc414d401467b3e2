// Owns a built-in unit's realtime state: allocated once when the unit is prepared, freed with the unit. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The single allocation behind a built-in unit's render functions.
///
/// ``prepare(unit:_:)`` allocates and initializes the state once (a unit belongs to one graph); the
/// state is deinitialized and freed when the unit object is released, which the engine only lets happen
/// off the audio thread after the unit's graph is retired.
final class UnitStateStorage<State: ~Copyable> {
    /// The state, once prepared.
    private(set) var pointer: UnsafeMutablePointer<State>?
    private let release: (UnsafeMutablePointer<State>) -> Void

    /// Storage whose `release` runs just before the state is deinitialized (for memory a copyable state holds).
    init(release: @escaping (UnsafeMutablePointer<State>) -> Void = { _ in }) {
        self.release = release
    }

    deinit {
        guard let pointer else { return }
        release(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Allocates the state made by `make`; a second call is an error (build a new unit for each graph).
    func prepare(unit: String, _ make: () throws(EngineError) -> State) throws(EngineError) -> UnsafeMutableRawPointer {
        guard pointer == nil else {
            throw .unitSetupFailed(unit: unit, reason: "already prepared; build a new unit for each graph")
        }
        let state = try make()
        let prepared = UnsafeMutablePointer<State>.allocate(capacity: 1)
        prepared.initialize(to: state)
        pointer = prepared
        return UnsafeMutableRawPointer(prepared)
    }
}
