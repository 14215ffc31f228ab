/// Why faces could not be found or described: one line that says what to do.
public enum FaceError: Error, CustomStringConvertible, Equatable {
    /// A model file is absent from every folder `FaceModels.locate()` searches.
    case modelsMissing(files: [String], searched: [String])
    /// The C++ side refused (an unreadable or invalid model file, a cascade that does not load, a
    /// failure inside dlib or OpenCV), in its own words.
    case vision(String)

    public var description: String {
        switch self {
        case .modelsMissing(let files, let searched):
            return "face models missing: \(files.joined(separator: " and ")) not found in "
                + searched.joined(separator: ", ")
                + " (run scripts/install-deps, or set SHOEBOX_MODELS to the folder that holds them)"
        case .vision(let message):
            return message
        }
    }
}

/// Calls a CVision function with a buffer for its error text; the text when it failed.
func withErrorBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T) -> (T, String) {
    let capacity = 1024
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    buffer[0] = 0
    let result = body(buffer, capacity)
    return (result, String(cString: buffer))
}
