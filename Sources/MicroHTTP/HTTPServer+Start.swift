import CMicroHTTPD
import Glibc

extension HTTPServer {
    /// Starts the libmicrohttpd daemon with the configured options.
    func launchDaemon(core: ServerCore) throws(HTTPServerError) -> (daemon: OpaquePointer, port: Int) {
        let configuration = core.configuration
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        var address = sockaddr_storage()
        let family = cmhd_make_sockaddr(configuration.host, UInt16(configuration.port), &address)
        guard family != 0 else { throw .invalidHost(configuration.host) }

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if family == 6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(core).toOpaque()
        let daemon = withUnsafeMutablePointer(to: &address) { addressPointer -> OpaquePointer? in
            var options: [MHD_OptionItem] = [
                // First, so that MHD reports everything, option errors included, through it.
                MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(Callbacks.log, to: Int.self), ptr_value: context),
                Self.option(.THREAD_POOL_SIZE, max(1, configuration.threadPoolSize)),
                Self.option(.CONNECTION_LIMIT, max(1, configuration.connectionLimit)),
                Self.option(.PER_IP_CONNECTION_LIMIT, max(0, configuration.perIPConnectionLimit)),
                Self.option(.CONNECTION_MEMORY_LIMIT, max(4096, configuration.connectionMemoryLimit)),
                Self.option(.CONNECTION_TIMEOUT, max(0, configuration.connectionTimeout)),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED,
                    value: unsafeBitCast(Callbacks.completed, to: Int.self),
                    ptr_value: context
                ),
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

    private static func option(_ option: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }
}
