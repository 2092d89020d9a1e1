/* The yardstick of `make bench`: a raw libmicrohttpd server in C answering every request with a
 * small fixed body, started with dragboard's HTTPServer daemon flags (poll, suspend/resume) and a pool of
 * THREADS threads: http_bench.py passes the server's own count (DragboardApp.threadPoolSize), so the two
 * are compared with the same threads. Its connection, per-IP, memory and timeout limits are the server's
 * defaults (HTTPServer.Configuration); none of them binds under wrk's 16 connections. The daemon is daemon.h's,
 * shared with peer.c. Built by the benchmark itself: cc -O2 hello.c $(pkg-config --cflags --libs libmicrohttpd).
 * Prints one "Listening on" line, like dragboard, and stops on SIGTERM or SIGINT. Connections are kept alive.
 *     hello PORT THREADS [FILE]
 * With FILE it answers with the bytes of FILE instead (text/css), the yardstick of a static file of the
 * same size: sending 10 KB costs the kernel more than sending 17 bytes. */
#include <stdlib.h>
#include <string.h>

#include "daemon.h"

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

int main(int argc, char **argv) {
    if (argc < 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: hello PORT THREADS [FILE]\n");
        return 2;
    }
    unsigned short port = (unsigned short)atoi(argv[1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
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
    int status = serve(port, threads, &answer, NULL);
    MHD_destroy_response(response);
    return status;
}
