/* The drop clients of `make bench`, in C: wrk cannot send a begin → drop → end sequence per connection,
 * and 16 Python processes on the server's 2 cores measured Python as much as the server. One thread per
 * client, each on one keep-alive HTTP/1.1 connection, doing exactly what clients.py's DropClient.run
 * does (same bodies and headers, same choice of rows, targets and hovered rows, version 0, a fresh op
 * and session token per drop), timing the drop request only. Built by http_bench.py:
 * cc -O2 -pthread drops.c -o drops. No dependencies beyond libc.
 *
 *     drops PORT PLAN START STOP [RATE]
 *
 * Without RATE (or with 0) each client starts its next begin → drop → end as soon as the last one ended: a
 * closed loop, which finds the server's throughput, and whose latencies are whatever queueing that saturation
 * makes. With RATE each client starts a cycle every 1/RATE s on a fixed schedule (the clients staggered
 * evenly across the period), whatever the answers: an offered load, at which the latencies say how the
 * server serves that load. A cycle that starts over 1 ms after its time is counted as late: many late cycles
 * mean the server could not keep up with the load, and the figures are the closed loop's again.
 *
 * PLAN is written by http_bench.py: a first line `lists <list>...` (the targets, in order), then one line
 * per client, `<seed> <row>=<list> ...`, its own rows in order with the list each is in. The clients
 * connect and fetch their CSRF cookie from `/` at once, start dropping at START and stop at STOP (Unix
 * times, seconds). Prints one JSON line: the counts, the wall time from START to the last client's
 * end, this process's own CPU meanwhile, and every drop's latency in ms.
 *
 * A refused answer is counted (a begin not 201, a drop not 200 with changes, an end not 200); anything
 * else unexpected (a closed connection, a body longer or shorter than its Content-Length, a chunked or
 * closing answer, no answer within 60 s) ends the program with status 2 and a message, never a figure.
 *
 *     drops --moves PORT PLAN START STOP
 *
 * The load of `make bench-peer` against peer.c, the hand-written C peer (libmicrohttpd + SQLite): each turn
 * one `POST /move` of the client's next own row (in turn, as above) to a random list at a random index among
 * the rows it believes that list holds, in a closed loop, timing every move. The plan's second line is
 * `sizes <rows>...`, each list's rows at START; a client keeps them from its own moves and from the peer's
 * answers (each says how many rows the target list has), so an index gone stale by another client's moves
 * is refused (409) now and then, counted as refused_drop and followed by the next turn. No CSRF cookie is
 * fetched; begins and ends are not sent (their counts stay 0). Any answer but 200 or 409 fails the run. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct client {
    int number;
    long seed;
    int count;     /* own rows */
    char **rows;
    int *where;    /* the list (index into lists) each own row is in */
    long *sizes;   /* with --moves: the rows it believes each list holds */
    int fd;
    char *buffer;  /* one answer at a time: head, then body */
    size_t capacity, used;
    char csrf[33];
    uint64_t random;
    double *latencies;
    size_t measured, room;
    long changed, refused_begin, refused_drop, failed_end, late;
};

static char **lists;
static int list_count;
static long *sizes; /* with --moves: each list's rows at START (the plan's `sizes` line) */
static int moves;
static unsigned port;
static int client_count;
static double start_at, stop_at, rate;

static void fail(const struct client *c, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    if (c) fprintf(stderr, "drops: client %d: ", c->number);
    else fputs("drops: ", stderr);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
    exit(2); /* from any thread: the whole run is void */
}

static double wall_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (double)now.tv_sec + now.tv_nsec / 1e9;
}

static double monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

static void sleep_until(double when) {
    struct timespec at = {.tv_sec = (time_t)when, .tv_nsec = (long)((when - (time_t)when) * 1e9)};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR) {}
}

/* splitmix64, seeded from getrandom. */
static uint64_t next_random(struct client *c) {
    uint64_t z = (c->random += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 32 hex digits, like Python's secrets.token_hex(16): random, so tokens and ops never repeat across
 * clients or runs (a repeated op would be answered from the server's record). */
static void token(struct client *c, char out[33]) {
    for (int half = 0; half < 2; half++) snprintf(out + 16 * half, 17, "%016llx", (unsigned long long)next_random(c));
}

static void receive(struct client *c) {
    if (c->capacity - c->used < 4096) {
        c->capacity *= 2;
        if (!(c->buffer = realloc(c->buffer, c->capacity))) fail(c, "out of memory");
    }
    for (;;) {
        ssize_t got = recv(c->fd, c->buffer + c->used, c->capacity - c->used - 1, 0);
        if (got > 0) { c->used += (size_t)got; return; }
        if (got == 0) fail(c, "the server closed the connection (%zu bytes of an answer read)", c->used);
        if (errno == EINTR) continue;
        fail(c, "no answer: %s", errno == EAGAIN ? "nothing within 60 s" : strerror(errno));
    }
}

/* One request and its whole answer; returns the status and points *body at the NUL-terminated body. */
static int exchange(struct client *c, const char *method, const char *path, const char *json, char **body) {
    char request[2048];
    int size = snprintf(request, sizeof request, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nAccept-Encoding: identity\r\n",
                        method, path, port);
    if (json && moves) /* peer.c's form body, nothing else */
        size += snprintf(request + size, sizeof request - size,
                         "Content-Length: %zu\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n%s", strlen(json), json);
    else if (json) /* the headers of clients.session(), and the body in the same send (no Nagle wait) */
        size += snprintf(request + size, sizeof request - size,
                         "Content-Length: %zu\r\nContent-Type: application/json\r\nX-CSRF-Token: %s\r\n"
                         "Cookie: dragboard_csrf=%s\r\nOrigin: http://127.0.0.1:%u\r\nSec-Fetch-Site: same-origin\r\n\r\n%s",
                         strlen(json), c->csrf, c->csrf, port, json);
    else
        size += snprintf(request + size, sizeof request - size, "\r\n");
    if (size >= (int)sizeof request) fail(c, "request too long");
    for (int sent = 0; sent < size;) {
        ssize_t wrote = send(c->fd, request + sent, size - sent, MSG_NOSIGNAL);
        if (wrote < 0 && errno != EINTR) fail(c, "send: %s", strerror(errno));
        if (wrote > 0) sent += (int)wrote;
    }
    c->used = 0;
    char *end;
    for (;;) {
        c->buffer[c->used] = 0;
        if ((end = strstr(c->buffer, "\r\n\r\n"))) break;
        receive(c);
    }
    int status;
    if (sscanf(c->buffer, "HTTP/1.1 %3d ", &status) != 1) fail(c, "not an HTTP/1.1 answer: %.40s", c->buffer);
    size_t head = (size_t)(end - c->buffer) + 4, length = 0;
    int has_length = 0;
    for (char *line = strstr(c->buffer, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2) {
        char *value = line + strcspn(line, ":\r");
        if (*value != ':') fail(c, "malformed header line: %.40s", line);
        size_t name = (size_t)(value - line);
        for (value++; *value == ' '; value++) {}
        if (name == 14 && !strncasecmp(line, "Content-Length", 14)) {
            char *digits_end;
            length = strtoul(value, &digits_end, 10);
            if (digits_end == value || (*digits_end != '\r' && *digits_end != ' ')) fail(c, "bad Content-Length");
            has_length = 1;
        } else if (name == 17 && !strncasecmp(line, "Transfer-Encoding", 17)) {
            fail(c, "Transfer-Encoding %.20s on %s %s: only Content-Length bodies are read", value, method, path);
        } else if (name == 10 && !strncasecmp(line, "Connection", 10) && !strncasecmp(value, "close", 5)) {
            fail(c, "Connection: close on %s %s: each client keeps one connection", method, path);
        } else if (name == 10 && !strncasecmp(line, "Set-Cookie", 10) && !strncmp(value, "dragboard_csrf=", 15)) {
            snprintf(c->csrf, sizeof c->csrf, "%.32s", value + 15);
        }
    }
    if (!has_length) fail(c, "no Content-Length on %s %s", method, path);
    while (c->used < head + length) receive(c);
    /* Bytes beyond the body, in this read or the next answer's first, mean a wrong Content-Length. */
    if (c->used > head + length) fail(c, "%zu bytes after the body of %s %s", c->used - head - length, method, path);
    c->buffer[c->used] = 0;
    *body = c->buffer + head;
    return status;
}

/* A drop answer changed the board when its "changes" array is not empty (what DropClient.run checks).
 * Inside a JSON string a quote is escaped, so `"changes":` can only be a key. */
static int has_changes(const char *body) {
    const char *at = strstr(body, "\"changes\":");
    if (!at) return 0;
    for (at += 10; *at == ' '; at++) {}
    if (*at++ != '[') return 0;
    while (*at == ' ' || *at == '\n') at++;
    return *at != ']';
}

static void record(struct client *c, double latency) {
    if (c->measured == c->room) {
        c->room = c->room ? 2 * c->room : 1024;
        if (!(c->latencies = realloc(c->latencies, c->room * sizeof *c->latencies))) fail(c, "out of memory");
    }
    c->latencies[c->measured++] = latency;
}

/* The number after `"rows":` in peer.c's answer. */
static long rows_in(const struct client *c, const char *body) {
    const char *at = strstr(body, "\"rows\":");
    if (!at) fail(c, "no rows in peer.c's answer %.80s", body);
    return strtol(at + 7, NULL, 10);
}

/* --moves: the closed loop against peer.c (see the top). */
static void move_rows(struct client *c) {
    char *answer, body[512];
    for (long turn = c->seed; c->count && wall_now() < stop_at;) {
        turn++;
        int item = (int)(turn % c->count), target = (int)(next_random(c) % (uint64_t)list_count);
        int same = c->where[item] == target;
        long among = c->sizes[target] - same; /* the rows beside it in the target: index 0..among */
        long index = (long)(next_random(c) % (uint64_t)(among > 0 ? among + 1 : 1));
        snprintf(body, sizeof body, "item=%s&list=%s&index=%ld", c->rows[item], lists[target], index);
        double started = monotonic_ms();
        int status = exchange(c, "POST", "/move", body, &answer);
        record(c, monotonic_ms() - started);
        if (status == 200) {
            c->changed++;
            c->sizes[c->where[item]]--;
            c->where[item] = target;
            c->sizes[target] = rows_in(c, answer);
        } else if (status == 409) {
            c->refused_drop++;
            c->sizes[target] = rows_in(c, answer) + same;
        } else {
            fail(c, "POST /move %s answered %d: %.80s", body, status, answer);
        }
    }
}

static void *run(void *argument) {
    struct client *c = argument;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval limit = {.tv_sec = 60};
    int yes = 1;
    if ((c->fd = socket(AF_INET, SOCK_STREAM, 0)) < 0 || connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0)
        fail(c, "connect: %s", strerror(errno));
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    if (getrandom(&c->random, sizeof c->random, 0) != sizeof c->random) fail(c, "getrandom: %s", strerror(errno));
    char *answer, path[128], body[1024], session[33], op[33], location[256];
    if (moves) {
        sleep_until(start_at);
        move_rows(c);
        close(c->fd);
        return NULL;
    }
    int status = exchange(c, "GET", "/", NULL, &answer);
    if (status != 200 || strlen(c->csrf) != 32) fail(c, "GET / answered %d without a dragboard_csrf cookie", status);
    sleep_until(start_at);
    double period = rate > 0 ? 1 / rate : 0, due = start_at + period * c->number / client_count;
    for (long turn = c->seed; c->count && wall_now() < stop_at;) {
        if (period) {
            if (wall_now() > due + 1e-3) c->late++;
            else sleep_until(due);
            due += period;
            if (due >= stop_at) break;
        }
        turn++;
        int item = (int)(turn % c->count), target = (int)(turn % list_count), hovered = -1;
        for (int other = 0; other < c->count && hovered < 0; other++)
            if (other != item && c->where[other] == target) hovered = other;
        token(c, session);
        snprintf(body, sizeof body, "{\"token\": \"%s\", \"list\": \"%s\", \"items\": [\"%s\"]}", session,
                 lists[c->where[item]], c->rows[item]);
        if (exchange(c, "POST", "/api/sessions", body, &answer) != 201) { c->refused_begin++; continue; }
        if (hovered < 0 || turn % 3 == 0) strcpy(location, "null");
        else snprintf(location, sizeof location, "{\"row\": 0, \"fraction\": 0.3, \"item\": \"%s\"}", c->rows[hovered]);
        token(c, op);
        snprintf(body, sizeof body, "{\"op\": \"%s\", \"version\": 0, \"target\": {\"list\": \"%s\"}, \"location\": %s}",
                 op, lists[target], location);
        snprintf(path, sizeof path, "/api/sessions/%s/drop", session);
        double started = monotonic_ms();
        status = exchange(c, "POST", path, body, &answer);
        double took = monotonic_ms() - started;
        record(c, took);
        if (status == 200 && has_changes(answer)) { c->changed++; c->where[item] = target; }
        else c->refused_drop++;
        snprintf(path, sizeof path, "/api/sessions/%s/end", session);
        if (exchange(c, "POST", path, "{}", &answer) != 200) c->failed_end++;
    }
    close(c->fd);
    return NULL;
}

static char *read_file(const char *name) {
    FILE *file = fopen(name, "rb");
    if (!file) fail(NULL, "cannot read %s", name);
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, file) != (size_t)size) fail(NULL, "cannot read %s", name);
    fclose(file);
    text[size] = 0;
    return text;
}

/* Splits `line` in place at spaces; returns the number of words (at most `room`). */
static int words(char *line, char **word, int room) {
    int count = 0;
    for (char *save, *next = strtok_r(line, " ", &save); next; next = strtok_r(NULL, " ", &save)) {
        if (count == room) fail(NULL, "plan line too long");
        word[count++] = next;
    }
    return count;
}

static struct client *plan(char *text, int *clients) {
    char *save, *line = strtok_r(text, "\n", &save);
    char **head = calloc(64, sizeof *head);
    if (!line || (list_count = words(line, head, 64) - 1) < 1 || strcmp(head[0], "lists")) fail(NULL, "plan: no lists line");
    lists = head + 1;
    if (moves) {
        char **word = calloc((size_t)list_count + 2, sizeof *word);
        if (!(line = strtok_r(NULL, "\n", &save)) || words(line, word, list_count + 2) != list_count + 1 || strcmp(word[0], "sizes"))
            fail(NULL, "plan: no `sizes` line with one count per list");
        sizes = calloc((size_t)list_count, sizeof *sizes);
        for (int k = 0; k < list_count; k++) sizes[k] = strtol(word[k + 1], NULL, 10);
    }
    struct client *all = NULL;
    for (*clients = 0; (line = strtok_r(NULL, "\n", &save)); ++*clients) {
        if (!(all = realloc(all, (*clients + 1) * sizeof *all))) fail(NULL, "out of memory");
        struct client *c = &all[*clients];
        memset(c, 0, sizeof *c);
        size_t room = strlen(line) / 2 + 2;
        char **word = malloc(room * sizeof *word);
        int count = words(line, word, (int)room);
        c->number = *clients;
        c->seed = strtol(word[0], NULL, 10);
        c->count = count - 1;
        c->rows = word + 1;
        c->where = calloc((size_t)count, sizeof *c->where);
        for (int k = 0; k < c->count; k++) {
            char *equals = strchr(c->rows[k], '=');
            if (!equals) fail(NULL, "plan: %s is not row=list", c->rows[k]);
            *equals = 0;
            for (c->where[k] = 0; c->where[k] < list_count && strcmp(lists[c->where[k]], equals + 1); c->where[k]++) {}
            if (c->where[k] == list_count) fail(NULL, "plan: row %s is in %s, not a target", c->rows[k], equals + 1);
        }
        if (moves) {
            if (!(c->sizes = malloc((size_t)list_count * sizeof *c->sizes))) fail(NULL, "out of memory");
            memcpy(c->sizes, sizes, (size_t)list_count * sizeof *sizes);
        }
        c->capacity = 64 * 1024;
        if (!(c->buffer = malloc(c->capacity))) fail(NULL, "out of memory");
    }
    if (*clients == 0) fail(NULL, "plan: no clients");
    return all;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
    if ((moves = argc > 1 && !strcmp(argv[1], "--moves"))) {
        argv++;
        if (--argc != 5) fail(NULL, "usage: drops --moves PORT PLAN START STOP");
    }
    if (argc != 5 && argc != 6) fail(NULL, "usage: drops PORT PLAN START STOP [RATE] | drops --moves PORT PLAN START STOP");
    port = (unsigned)atoi(argv[1]);
    start_at = atof(argv[3]);
    stop_at = atof(argv[4]);
    rate = argc == 6 ? atof(argv[5]) : 0;
    int clients;
    struct client *all = plan(read_file(argv[2]), &clients);
    client_count = clients;
    pthread_t *threads = calloc((size_t)clients, sizeof *threads);
    for (int k = 0; k < clients; k++)
        if (pthread_create(&threads[k], NULL, run, &all[k])) fail(NULL, "pthread_create failed");
    sleep_until(start_at);
    double cpu = cpu_seconds();
    for (int k = 0; k < clients; k++) pthread_join(threads[k], NULL);
    double elapsed = wall_now() - start_at;
    cpu = cpu_seconds() - cpu;
    long changed = 0, refused_begin = 0, refused_drop = 0, failed_end = 0, late = 0;
    for (int k = 0; k < clients; k++) {
        late += all[k].late;
        changed += all[k].changed;
        refused_begin += all[k].refused_begin;
        refused_drop += all[k].refused_drop;
        failed_end += all[k].failed_end;
    }
    printf("{\"clients\": %d, \"changed\": %ld, \"refused_begin\": %ld, \"refused_drop\": %ld, \"failed_end\": %ld, "
           "\"late\": %ld, \"elapsed\": %.6f, \"cpu_seconds\": %.6f, \"latencies\": [",
           clients, changed, refused_begin, refused_drop, failed_end, late, elapsed, cpu);
    const char *separator = "";
    for (int k = 0; k < clients; k++)
        for (size_t n = 0; n < all[k].measured; n++, separator = ", ") printf("%s%.4f", separator, all[k].latencies[n]);
    printf("]}\n");
    return 0;
}
