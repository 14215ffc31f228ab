/// Why a file's pixels could not be had: a code callers can test and one line naming the file
/// and the problem (the analysis pipeline prints it and flags the asset).
public struct ImagingError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Code: String, Sendable {
        /// A format (or a variant of one, e.g. a 12-bit JPEG) this module does not decode.
        case unsupported
        /// Nothing decodable: broken headers, a truncated file the decoder cannot start on.
        case corrupt
        /// Declared dimensions (or the file's size) beyond `DecodeLimits`: refused before
        /// anything that large is allocated.
        case tooLarge
        /// A movie file without a video track (or one no decoder is installed for).
        case noVideoStream
        /// Reading the descriptor failed.
        case io
    }

    public var code: Code
    /// The file's name as the caller gave it (only for the message).
    public var file: String
    public var problem: String

    public init(_ code: Code, _ file: String, _ problem: String) {
        self.code = code
        self.file = file
        // One line whatever a library wrote (libjpeg's messages can end in a newline).
        self.problem = problem.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    public var description: String { "\(file): \(problem)" }
}
