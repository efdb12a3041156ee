import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on loopback in front of a real service (an object store), so that a test can take the
/// service away as the network sees it: ``stop()`` closes the listening socket and every forwarded connection,
/// after which connections to its port are refused, exactly as when the service's process is stopped.
final class TCPForwarder: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private final class Connections: Sendable {
        let list = Mutex<[any Channel]>([])
        func add(_ channel: any Channel) { list.withLock { $0.append(channel) } }
        var all: [any Channel] { list.withLock { $0 } }
    }

    private let connections = Connections()
    /// The port to connect to instead of the service's.
    let port: Int

    /// Starts forwarding a free loopback port to `host`:`targetPort`.
    init(to host: String, port targetPort: Int) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let connections = self.connections
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                connections.add(inbound)
                return ClientBootstrap(group: inbound.eventLoop).connect(host: host, port: targetPort).flatMap { outbound in
                    connections.add(outbound)
                    return inbound.eventLoop.makeCompletedFuture {
                        let (a, b) = GlueHandler.pair()
                        try inbound.pipeline.syncOperations.addHandler(a)
                        try outbound.pipeline.syncOperations.addHandler(b)
                    }
                }
            }
        listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    /// Closes the listening socket and every forwarded connection.
    func stop() async throws {
        try? await listener.close()
        for channel in connections.all { try? await channel.close() }
        try await group.shutdownGracefully()
    }
}

/// Passes the bytes one channel reads to its partner, and closes the partner when it closes (NIO's own
/// example of a proxy, reduced to what a test needs).
private final class GlueHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?

    static func pair() -> (GlueHandler, GlueHandler) {
        let a = GlueHandler()
        let b = GlueHandler()
        a.partner = b
        b.partner = a
        return (a, b)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.write(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.close()
    }

    // Both channels of a pair run on the same event loop (the outbound one is made on the inbound's).
    private func write(_ data: NIOAny) {
        context?.write(data, promise: nil)
    }

    private func flush() {
        context?.flush()
    }

    private func close() {
        context?.close(promise: nil)
    }
}
