import Hummingbird
import NIOCore

/// The request context of Shoebox's routes: Hummingbird's core storage plus the connection's two
/// ends, which the LAN rules need (a request that came in on the LAN address must carry the
/// pairing session; one on loopback need not).
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address the request arrived on (loopback or the LAN address `--lan` listens on).
    public let localAddress: SocketAddress?
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        localAddress = source.channel.localAddress
        remoteAddress = source.channel.remoteAddress
    }

    /// JSON bodies are small (ids, a name); uploads stream their body instead of decoding it.
    public var maxUploadSize: Int { 4 << 20 }
}
