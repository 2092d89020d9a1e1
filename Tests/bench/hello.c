/* The yardstick of `make bench`: a raw libmicrohttpd server in C answering every request with a
 * small fixed body, started with dragboard's HTTPServer daemon flags (poll, suspend/resume) and a pool of
 * THREADS threads: http_bench.py passes the server's own count (DragboardApp.threadPoolSize), so the two
 * are compared with the same threads. Its connection, per-IP, memory and timeout limits are the server's
 * defaults (HTTPServer.Configuration); none of them binds under wrk's 16 connections. Built by the benchmark itself:
 * cc -O2 hello.c $(pkg-config --cflags --libs libmicrohttpd). Prints one "Listening on" line, like
 * dragboard, and stops on SIGTERM or SIGINT. Connections are kept alive.
 *     hello PORT THREADS [FILE]
 * With FILE it answers with the bytes of FILE instead (text/css), the yardstick of a static file of the
 * same size: sending 10 KB costs the kernel more than sending 17 bytes. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char body[] = "{\"hello\":\"world\"}";
static struct MHD_Response *response;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data; (void)upload_data_size;
    /* Answer on the second call, once the (empty) body is over, as dragboard does: libmicrohttpd 0.9.75
     * closes the connection after a response queued on the first call, so every request would pay a
     * new TCP connection. */
    static int seen;
    if (*state == NULL) {
        *state = &seen;
        return MHD_YES;
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, response);
}

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

int main(int argc, char **argv) {
    if (argc < 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: hello PORT THREADS [FILE]\n");
        return 2;
    }
    unsigned short port = (unsigned short)atoi(argv[1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (argc > 3) {
        FILE *file = fopen(argv[3], "rb");
        if (file == NULL) { fprintf(stderr, "cannot read %s\n", argv[3]); return 1; }
        static char contents[1 << 20];
        size_t size = fread(contents, 1, sizeof contents, file);
        fclose(file);
        response = MHD_create_response_from_buffer(size, contents, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(response, "Content-Type", "text/css; charset=utf-8");
    } else {
        response = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(response, "Content-Type", "application/json");
    }
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, port, NULL, NULL, &answer, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)16384,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)64,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
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
    MHD_destroy_response(response);
    return 0;
}
