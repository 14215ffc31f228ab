import Foundation
import Hummingbird

/// `/api/events`: the server-sent events of `LiveEvents`.
struct EventRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/events") { _, _ in
            let stream = app.events.subscribe()
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                for await text in stream { try await writer.write(ByteBuffer(string: text)) }
                try await writer.finish(nil)
            })
        }
    }
}
