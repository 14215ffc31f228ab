import CLibCrypto

/// SHA-256 through the system's OpenSSL libcrypto (which uses the CPU's SHA extensions where it
/// has them), written as lower-case hex, as `sha256sum` prints it and the index stores it.
/// Streamed (`update` as bytes arrive, then `finalize`) or in one call (`hex(of:)`).
/// Not shared between threads: each one hashes with its own.
public final class SHA256Hasher {
    /// OpenSSL's SHA-256, fetched once: `EVP_sha256()` would look it up again at every init.
    /// Read-only once fetched, so any thread may use it.
    nonisolated(unsafe) private static let algorithm: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("OpenSSL's libcrypto has no SHA-256") }
        return md
    }()

    /// The digest's state, ours alone: freed in deinit.
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("out of memory for a SHA-256 context") }
        self.context = context
        start()
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to what is hashed.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("SHA-256 update failed") }
    }

    /// Adds `bytes` (an array, a slice of one, `Data`…) to what is hashed.
    public func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The digest of everything added since init (or the last `finalize`), in hex; the hasher then
    /// starts over, empty.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { fatalError("SHA-256 finalize failed") }
        start()
        return Hex.string(digest.prefix(Int(length)))
    }

    /// The digest of `bytes` in hex, in one call.
    public static func hex<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    private func start() {
        guard EVP_DigestInit_ex(context, Self.algorithm, nil) == 1 else { fatalError("SHA-256 init failed") }
    }
}
