extension HTTPError {
    /// Renders the HTML page a browser gets for an error (see ``HTTPServer/Configuration/errorPage``).
    public typealias PageRenderer = @Sendable (_ error: HTTPError, _ request: Request) -> String

    /// A bare page that says what happened and leads back to the site's root: the default renderer, for
    /// servers that have no page of their own.
    public static let plainPage: PageRenderer = { error, _ in
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(error.status.code) \(escape(error.status.reasonPhrase))</title></head>
        <body><h1>\(error.status.code) \(escape(error.status.reasonPhrase))</h1><p>\(escape(error.message))</p><p><a href="/">Home</a></p></body></html>
        """
    }

    /// The error as the page `render` makes, keeping its status and extra headers (`Retry-After`, `Allow`).
    func pageResponse(for request: Request, render: PageRenderer) -> Response {
        var response = Response.html(render(self, request), status: status)
        for (name, value) in headers { response.headers[name] = value }
        return response
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension Request {
    /// Whether the client is a browser navigating (its `Accept` names `text/html`), which should get an
    /// error as a page rather than JSON.
    public var prefersHTML: Bool {
        headers["Accept"]?.contains("text/html") == true
    }
}
