extension Router {
    /// The outcome of matching a method and path, known from the request line alone.
    enum Resolution: Sendable {
        case route(Route, parameters: [String: String])
        /// `mount` is the index of the mount in ``Router/mounts``.
        case files(StaticFiles, relativePath: String, mount: Int)
        case notFound
        case methodNotAllowed(allow: [HTTPMethod])
    }

    /// Matches a request line against the mounts, then the routes.
    /// - Parameters:
    ///   - method: The request method; `HEAD` falls back to `GET` routes.
    ///   - rawPath: The path as sent (percent-encoded); segments are split before decoding.
    func resolve(method: HTTPMethod, rawPath: String) -> Resolution {
        let decodedPath = PercentDecoding.decode(rawPath)
        for (index, mount) in mounts.enumerated() {
            let directoryPrefix = mount.directoryPrefix
            guard decodedPath.hasPrefix(directoryPrefix) || decodedPath == mount.prefix else { continue }
            guard method == .get || method == .head else { return .methodNotAllowed(allow: [.get, .head]) }
            return .files(mount.files, relativePath: String(decodedPath.dropFirst(directoryPrefix.count)), mount: index)
        }

        let segments = RoutePattern.split(rawPath)
        var best: (route: Route, parameters: [String: String])?
        var bestIsExactMethod = false
        var allowed: [HTTPMethod] = []
        for index in routes.indices {
            // Most routes differ in length from the path: ruled out before the route is copied or matched.
            guard routes[index].pattern.canMatch(segmentCount: segments.count),
                  let parameters = routes[index].pattern.match(segments) else { continue }
            let route = routes[index]
            if !allowed.contains(route.method) { allowed.append(route.method) }
            let exact = route.method == method
            guard exact || (method == .head && route.method == .get) else { continue }
            if let current = best {
                let better = current.route.pattern.specificity.lexicographicallyPrecedes(route.pattern.specificity)
                let same = current.route.pattern.specificity == route.pattern.specificity
                guard better || (same && exact && !bestIsExactMethod) else { continue }
            }
            best = (route, parameters)
            bestIsExactMethod = exact
        }
        if let best {
            return .route(best.route, parameters: best.parameters)
        }
        if allowed.isEmpty {
            return .notFound
        }
        if allowed.contains(.get), !allowed.contains(.head) {
            allowed.insert(.head, at: allowed.firstIndex(of: .get)! + 1)
        }
        return .methodNotAllowed(allow: allowed)
    }
}
