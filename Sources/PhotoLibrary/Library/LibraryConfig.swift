import Foundation

/// `.shoebox/config.toml`. Written at `init` with every setting at its default, commented out,
/// so users can see what exists; the settings are read by the stages that use them.
public enum LibraryConfig {
    public static let defaultText = """
    # Shoebox library settings. Uncomment a line to change it.

    [trash]
    # Days an item waits in "Recently Deleted/" before `watch` or `trash purge` removes it.
    # retention_days = 30

    [watch]
    # Minutes between safety scans while `shoebox watch` runs (0 = never).
    # safety_scan_minutes = 60
    # Pause instead of marking files missing when this share of the library vanishes at once.
    # mass_disappearance_share = 0.5

    """
}
