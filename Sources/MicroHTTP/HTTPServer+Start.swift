import CMicroHTTPD
import Glibc
import Logging

extension HTTPServer {
    /// Starts the libmicrohttpd daemon with the configured options.
    func launchDaemon(core: ServerCore) throws(HTTPServerError) -> (daemon: OpaquePointer, port: Int) {
        let configuration = core.configuration
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        var address = sockaddr_storage()
        let family = cmhd_make_sockaddr(configuration.host, UInt16(configuration.port), &address)
        guard family != 0 else { throw .invalidHost(configuration.host) }

        let loop = configuration.eventLoop == .epoll ? MHD_USE_EPOLL_INTERNAL_THREAD : MHD_USE_POLL_INTERNAL_THREAD
        var flags = loop.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let connectionLimit = Self.connectionLimit(configuration.connectionLimit, logger: core)
        if family == 6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(core).toOpaque()
        let daemon = withUnsafeMutablePointer(to: &address) { addressPointer -> OpaquePointer? in
            var options: [MHD_OptionItem] = [
                // First, so that MHD reports everything, option errors included, through it.
                MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(Callbacks.log, to: Int.self), ptr_value: context),
                Self.option(.THREAD_POOL_SIZE, max(1, configuration.threadPoolSize)),
                Self.option(.CONNECTION_LIMIT, connectionLimit),
                // Behind a proxy every connection comes from it: the shares go by forwarded address instead.
                Self.option(.PER_IP_CONNECTION_LIMIT, configuration.trustedProxies.isEmpty ? max(0, configuration.perIPConnectionLimit) : 0),
                Self.option(.CONNECTION_MEMORY_LIMIT, max(4096, configuration.connectionMemoryLimit)),
                Self.option(.CONNECTION_TIMEOUT, max(0, configuration.connectionTimeout)),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED,
                    value: unsafeBitCast(Callbacks.completed, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(
                    option: .NOTIFY_CONNECTION,
                    value: unsafeBitCast(Callbacks.connectionChanged, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(
                    option: .URI_LOG_CALLBACK,
                    value: unsafeBitCast(Callbacks.requestLine, to: Int.self),
                    ptr_value: context
                ),
                // Not strict (0): its two checks are made in Swift, with JSON errors (see ServerCore+Admission).
                Self.option(.STRICT_FOR_CLIENT, 0),
                MHD_OptionItem(
                    option: .UNESCAPE_CALLBACK,
                    value: unsafeBitCast(Callbacks.keepEscapes, to: Int.self),
                    ptr_value: nil
                ),
                MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
            ]
            return cmhd_start_daemon(flags, UInt16(configuration.port), Callbacks.handle, context, &options)
        }
        guard let daemon else { throw .bindFailed(host: configuration.host, port: configuration.port) }
        return (daemon, Int(cmhd_bind_port(daemon)))
    }

    /// The configured connection limit, lowered to fit the process's open-file limit (raised first to its
    /// hard limit, and leaving room for the listening socket, databases and files); libmicrohttpd would
    /// otherwise fail `accept` with EMFILE.
    private static func connectionLimit(_ configured: Int, logger core: ServerCore) -> Int {
        let fileLimit = cmhd_raise_open_file_limit()
        let available = fileLimit > 0 ? max(16, fileLimit - 128) : configured
        if configured > available {
            core.logger.warning(
                "Connection limit lowered from \(configured) to \(available) by the open-file limit (ulimit -n \(fileLimit))"
            )
        }
        return max(1, min(configured, available))
    }

    private static func option(_ option: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }
}
