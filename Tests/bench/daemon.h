/* The libmicrohttpd daemon of the bench's C servers (hello.c, the yardstick of `make bench`, and peer.c, that of
 * `make bench-peer`), in one place so that both keep dragboard's HTTPServer daemon flags (poll, suspend/resume)
 * with a pool of THREADS threads: the benchmarks pass the server's own count (DragboardApp.threadPoolSize). Its
 * connection, per-IP, memory and timeout limits are the server's defaults (HTTPServer.Configuration); none of
 * them binds under the benchmarks' 16 connections at most. Included by each server's single source file. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

/* Serves loopback PORT (0: any free one) with `answer` (and `completed`, when not NULL, at each request's end):
 * prints one "Listening on http://127.0.0.1:PORT" line, like dragboard, and returns 0 once SIGTERM or SIGINT has
 * stopped the daemon, or 1 if it could not start. */
static int serve(unsigned short port, unsigned int threads, MHD_AccessHandlerCallback answer,
                 MHD_RequestCompletedCallback completed) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, port, NULL, NULL, answer, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)16384,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)64,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "could not start\n"); return 1; }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("Listening on http://127.0.0.1:%u\n", info ? info->port : port);
    fflush(stdout);
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    return 0;
}
