import Curation
import PhotoLibrary
import Tidy
import Tracker

/// Every feature this executable offers, given to each session it opens (the web server's
/// sessions get the same list): their index tables, recoveries and doctor checks.
package enum Features {
    package static let all: [LibraryFeature] = [Tidy.feature, Tracker.feature, Curation.feature]
}

extension LibraryOptions {
    /// The library `--library` names (else `$SHOEBOX_LIBRARY`, else the enclosing one) opened with
    /// every feature; messages about files a change met on the way go to stderr. `forReading`:
    /// for the commands that only read (in the common case), which then write nothing to the
    /// index (`LibrarySession.init`).
    package func session(forReading: Bool = false) throws -> LibrarySession {
        try LibrarySession.locate(explicit: library, features: Features.all, forReading: forReading, log: { Terminal.message($0) })
    }
}
