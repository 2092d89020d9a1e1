/* The yardstick of `make bench-peer` (issue #27, goal 1): a hand-written C peer (libmicrohttpd + SQLite)
 * that moves rows the plain way, so Dragboard's CPU per move can be read against what a move costs
 * without any of its machinery. Integer positions, 0..n-1 in each list; a move is one BEGIN IMMEDIATE
 * transaction of one read (the row's list and position, and the target list's size) and ONE UPDATE whose
 * CASE expressions close the gap in the old list, open one in the new list and place the row. Durable as
 * Dragboard is: WAL with synchronous=FULL, so an acknowledged move is on disk. The issue names a Hummingbird
 * + GRDB peer; until one is approved, this one is built from what the project already links.
 *
 * The daemon is hello.c's (daemon.h: same flags, limits and pool of THREADS threads; peer_bench.py passes the
 * server's own count), with one SQLite connection per pool thread, opened on its first request with its
 * statements prepared once and busy_timeout set; moves take a mutex for their transaction, one at a time as
 * GRDB's single writer runs them (a shared writer connection measured the same CPU per move). The board's
 * version is a counter in memory, one per acknowledged move, taken under that mutex (Dragboard keeps its
 * version in a row it updates too: if anything the peer is cheaper than it would be). Built by the benchmark itself:
 * cc -O2 peer.c $(pkg-config --cflags --libs libmicrohttpd) -lsqlite3 -pthread. Prints one "Listening on"
 * line, like dragboard and hello.c, and stops on SIGTERM or SIGINT. Connections are kept alive.
 *
 *     peer seed DATABASE LISTS ROWS    a new board: lists list-1..list-LISTS of ROWS rows each, the row at
 *                                      position n of list-k is named item-k-n
 *     peer PORT THREADS DATABASE       serves that board:
 *
 *     POST /move  (form body: item=ID&list=LIST&index=N)  moves row ID to list LIST at index N (0: the top;
 *                 the target's size without the row: the end) → 200 {"version":V,"rows":R} (R: rows in LIST
 *                 now), 404 for an unknown row, 409 {"error":...,"rows":R} for an index outside 0..R (R: the
 *                 rows the row could be placed among), 400 for a malformed body; nothing is changed but by a 200
 *     GET /list?list=LIST  → 200 {"items":[ID...]} in position order */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"

static const char *database;
static unsigned long board_version;

/* One pool thread's connection and statements. */
struct worker {
    sqlite3 *db;
    sqlite3_stmt *begin, *read, *update, *commit, *rollback, *list;
};
static __thread struct worker *worker;
static struct worker *workers[256];
static int worker_count;
static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t writing = PTHREAD_MUTEX_INITIALIZER; /* held through each move's transaction */

static const char read_sql[] =
    "SELECT list, position, (SELECT coalesce(max(position) + 1, 0) FROM item WHERE list = ?2) FROM item WHERE id = ?1";
/* ?1 the row, ?2 its new list, ?3 its new index; rows of list ?4 at positions ?5..?6 go up by one (towards the
 * top), rows of list ?7 at ?8..?9 down by one. Every other row is left alone: the WHERE names only those. */
static const char update_sql[] =
    "UPDATE item SET list = CASE WHEN id = ?1 THEN ?2 ELSE list END, "
    "position = CASE WHEN id = ?1 THEN ?3 WHEN list = ?4 AND position BETWEEN ?5 AND ?6 THEN position - 1 "
    "ELSE position + 1 END "
    "WHERE id = ?1 OR (list = ?4 AND position BETWEEN ?5 AND ?6) OR (list = ?7 AND position BETWEEN ?8 AND ?9)";

static sqlite3 *open_database(const char *path, int flags) {
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "peer: cannot open %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_busy_timeout(db, 5000);
    /* synchronous is a setting of each connection, journal_mode of the file. */
    if (sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "peer: %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    return db;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "peer: %s: %s\n", sql, sqlite3_errmsg(db));
        exit(1);
    }
    return statement;
}

static struct worker *this_worker(void) {
    if (worker) return worker;
    struct worker *w = calloc(1, sizeof *w);
    w->db = open_database(database, SQLITE_OPEN_READWRITE);
    w->begin = prepare(w->db, "BEGIN IMMEDIATE");
    w->read = prepare(w->db, read_sql);
    w->update = prepare(w->db, update_sql);
    w->commit = prepare(w->db, "COMMIT");
    w->rollback = prepare(w->db, "ROLLBACK");
    w->list = prepare(w->db, "SELECT id FROM item WHERE list = ?1 ORDER BY position");
    pthread_mutex_lock(&workers_lock);
    if (worker_count == (int)(sizeof workers / sizeof *workers)) { fprintf(stderr, "peer: too many threads\n"); exit(1); }
    workers[worker_count++] = w;
    pthread_mutex_unlock(&workers_lock);
    return worker = w;
}

/* Runs a statement without results (BEGIN, the UPDATE, COMMIT, ROLLBACK); SQLITE_DONE or the error. */
static int run(sqlite3_stmt *statement) {
    int status = sqlite3_step(statement);
    sqlite3_reset(statement);
    return status;
}

/* One request's state: its body, read over the access handler's calls. */
struct request {
    size_t used;
    int too_long;
    char body[512];
};

static enum MHD_Result reply(struct MHD_Connection *connection, unsigned int status, const char *body) {
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

/* Decodes application/x-www-form-urlencoded `text` in place ('+' and %XX). */
static void decode(char *text) {
    char *out = text;
    for (char *in = text; *in; in++) {
        if (*in == '+') *out++ = ' ';
        else if (*in == '%' && in[1] && in[2]) {
            char hex[3] = {in[1], in[2], 0};
            *out++ = (char)strtol(hex, NULL, 16);
            in += 2;
        } else *out++ = *in;
    }
    *out = 0;
}

/* The value of `name` in the form `body` (split in place at '&'), or NULL. */
static const char *field(char **pairs, int count, const char *name) {
    size_t length = strlen(name);
    for (int k = 0; k < count; k++)
        if (!strncmp(pairs[k], name, length) && pairs[k][length] == '=') return pairs[k] + length + 1;
    return NULL;
}

/* Logs the connection's error, rolls back if asked, and gives the 500 answer. */
static unsigned int failed(struct worker *w, int in_transaction, char *body, size_t room) {
    fprintf(stderr, "peer: %s\n", sqlite3_errmsg(w->db));
    if (in_transaction) run(w->rollback);
    snprintf(body, room, "{\"error\":\"database\"}");
    return MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* The move's transaction on the thread's connection: the HTTP status, and its answer written to `body`. */
static unsigned int move_row(struct worker *w, const char *item, const char *target, long index, char *body, size_t room) {
    if (run(w->begin) != SQLITE_DONE) return failed(w, 0, body, room);
    sqlite3_bind_text(w->read, 1, item, -1, SQLITE_STATIC);
    sqlite3_bind_text(w->read, 2, target, -1, SQLITE_STATIC);
    int status = sqlite3_step(w->read);
    if (status == SQLITE_DONE) {
        sqlite3_reset(w->read);
        run(w->rollback);
        snprintf(body, room, "{\"error\":\"no such item\"}");
        return MHD_HTTP_NOT_FOUND;
    }
    if (status != SQLITE_ROW) { sqlite3_reset(w->read); return failed(w, 1, body, room); }
    char source[256];
    snprintf(source, sizeof source, "%s", (const char *)sqlite3_column_text(w->read, 0));
    long from = sqlite3_column_int64(w->read, 1), size = sqlite3_column_int64(w->read, 2);
    sqlite3_reset(w->read);
    int same = !strcmp(source, target);
    long others = same ? size - 1 : size; /* the rows of the target list beside the moved one */
    if (index < 0 || index > others) {
        run(w->rollback);
        snprintf(body, room, "{\"error\":\"index out of range\",\"rows\":%ld}", others);
        return MHD_HTTP_CONFLICT;
    }
    /* Up by one: the old list below the row (within one list: down to the new index); down by one: the new
     * list from the new index (within one list: up to the old index). An empty range is lo > hi. */
    long up_lo = from + 1, up_hi = same ? (index > from ? index : -1) : (long)1 << 62;
    long down_lo = index, down_hi = same ? (index < from ? from - 1 : -2) : (long)1 << 62;
    sqlite3_bind_text(w->update, 1, item, -1, SQLITE_STATIC);
    sqlite3_bind_text(w->update, 2, target, -1, SQLITE_STATIC);
    sqlite3_bind_int64(w->update, 3, index);
    sqlite3_bind_text(w->update, 4, source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(w->update, 5, up_lo);
    sqlite3_bind_int64(w->update, 6, up_hi);
    sqlite3_bind_text(w->update, 7, target, -1, SQLITE_STATIC);
    sqlite3_bind_int64(w->update, 8, down_lo);
    sqlite3_bind_int64(w->update, 9, down_hi);
    if (run(w->update) != SQLITE_DONE) return failed(w, 1, body, room);
    if (run(w->commit) != SQLITE_DONE) return failed(w, 1, body, room);
    snprintf(body, room, "{\"version\":%lu,\"rows\":%ld}", ++board_version, others + 1);
    return MHD_HTTP_OK;
}

static enum MHD_Result move(struct MHD_Connection *connection, struct request *request) {
    if (request->too_long) return reply(connection, MHD_HTTP_CONTENT_TOO_LARGE, "{\"error\":\"body too long\"}");
    request->body[request->used] = 0;
    char *pairs[8], *save;
    int count = 0;
    for (char *pair = strtok_r(request->body, "&", &save); pair && count < 8; pair = strtok_r(NULL, "&", &save)) {
        decode(pair);
        pairs[count++] = pair;
    }
    const char *item = field(pairs, count, "item"), *target = field(pairs, count, "list"), *place = field(pairs, count, "index");
    char *end;
    long index = place ? strtol(place, &end, 10) : 0;
    if (!item || !target || !place || !*place || *end || !*item || !*target)
        return reply(connection, MHD_HTTP_BAD_REQUEST, "{\"error\":\"expected item, list and index\"}");
    struct worker *w = this_worker();
    char body[128];
    /* One move at a time, as GRDB's single writer would: SQLite's own lock alone, waited for in busy_timeout's
     * sleeps, let a writer starve past its 5 s behind the others' 40 ms moves at 10,000 rows ("database is locked"). */
    pthread_mutex_lock(&writing);
    unsigned int status = move_row(w, item, target, index, body, sizeof body);
    pthread_mutex_unlock(&writing);
    return reply(connection, status, body);
}

static enum MHD_Result list(struct MHD_Connection *connection) {
    const char *name = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "list");
    if (!name) return reply(connection, MHD_HTTP_BAD_REQUEST, "{\"error\":\"expected list\"}");
    struct worker *w = this_worker();
    size_t capacity = 4096, used = 0;
    char *body = malloc(capacity);
    used += (size_t)snprintf(body, capacity, "{\"items\":[");
    sqlite3_bind_text(w->list, 1, name, -1, SQLITE_STATIC);
    int status;
    while ((status = sqlite3_step(w->list)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(w->list, 0);
        while (capacity - used < strlen(id) + 8) body = realloc(body, capacity *= 2);
        used += (size_t)snprintf(body + used, capacity - used, "%s\"%s\"", used > 10 ? "," : "", id);
    }
    sqlite3_reset(w->list);
    if (status != SQLITE_DONE) {
        char error[64];
        free(body);
        return reply(connection, failed(w, 0, error, sizeof error), error);
    }
    snprintf(body + used, capacity - used, "]}");
    enum MHD_Result queued = reply(connection, MHD_HTTP_OK, body);
    free(body);
    return queued;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls; (void)version;
    /* Answer once the body is over (on the second call for a request without one), as dragboard and hello.c
     * do: libmicrohttpd 0.9.75 closes the connection after a response queued on the first call. */
    struct request *request = *state;
    if (request == NULL) {
        *state = calloc(1, sizeof *request);
        return *state ? MHD_YES : MHD_NO;
    }
    if (*upload_data_size) {
        size_t room = sizeof request->body - 1 - request->used, taken = *upload_data_size < room ? *upload_data_size : room;
        memcpy(request->body + request->used, upload_data, taken);
        request->used += taken;
        request->too_long |= taken < *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (!strcmp(url, "/move") && !strcmp(method, "POST")) return move(connection, request);
    if (!strcmp(url, "/list") && !strcmp(method, "GET")) return list(connection);
    return reply(connection, MHD_HTTP_NOT_FOUND, "{\"error\":\"not found\"}");
}

static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    free(*state);
    *state = NULL;
}

static int seed(const char *path, long lists, long rows) {
    sqlite3 *db = open_database(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_exec(db, "DROP TABLE IF EXISTS item; "
                         "CREATE TABLE item(id TEXT PRIMARY KEY, list TEXT NOT NULL, position INTEGER NOT NULL); "
                         "CREATE INDEX item_place ON item(list, position); BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "peer: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_stmt *insert = prepare(db, "INSERT INTO item(id, list, position) VALUES (?1, ?2, ?3)");
    char id[64], name[32];
    for (long k = 1; k <= lists; k++)
        for (long n = 0; n < rows; n++) {
            snprintf(id, sizeof id, "item-%ld-%ld", k, n);
            snprintf(name, sizeof name, "list-%ld", k);
            sqlite3_bind_text(insert, 1, id, -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 2, name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 3, n);
            if (run(insert) != SQLITE_DONE) { fprintf(stderr, "peer: %s\n", sqlite3_errmsg(db)); return 1; }
        }
    sqlite3_finalize(insert);
    if (sqlite3_exec(db, "COMMIT; ANALYZE", NULL, NULL, NULL) != SQLITE_OK) { fprintf(stderr, "peer: %s\n", sqlite3_errmsg(db)); return 1; }
    sqlite3_close(db);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "seed") && atol(argv[3]) > 0 && atol(argv[4]) >= 0)
        return seed(argv[2], atol(argv[3]), atol(argv[4]));
    if (argc != 4 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: peer PORT THREADS DATABASE | peer seed DATABASE LISTS ROWS\n");
        return 2;
    }
    unsigned short port = (unsigned short)atoi(argv[1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
    database = argv[3];
    /* Fails here, not on the first move, on a file that is not a seeded board. */
    sqlite3 *check = open_database(database, SQLITE_OPEN_READWRITE);
    sqlite3_finalize(prepare(check, update_sql));
    sqlite3_close(check);
    if (serve(port, threads, &answer, &completed)) return 1;
    for (int k = 0; k < worker_count; k++) {
        struct worker *w = workers[k];
        sqlite3_stmt *statements[] = {w->begin, w->read, w->update, w->commit, w->rollback, w->list};
        for (size_t s = 0; s < sizeof statements / sizeof *statements; s++) sqlite3_finalize(statements[s]);
        sqlite3_close(w->db);
    }
    return 0;
}
