// Clamping a unit setting into its range, NaN to its default: what each parameters type's `sanitized` does per value. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later

extension ClosedRange where Bound == Float {
    /// `value` within this range; NaN gives `fallback`.
    public func clamp(_ value: Float, fallback: Float) -> Float {
        value.isNaN ? fallback : Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
