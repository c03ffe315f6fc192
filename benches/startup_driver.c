/* The timing driver of benches/startup.sh: starts whole processes and times
 * each one, from just before posix_spawn to the return of wait4, with
 * CLOCK_MONOTONIC, so that no shell runs between two calls.
 *
 *   startup_driver SPEC ROUNDS WARMUP
 *
 * SPEC holds one process a line, fields separated by tabs:
 *
 *   LABEL  STDIN-FILE  PROGRAM  ARG...
 *
 * Each round runs every line once, in the order of the file in even rounds
 * and in reverse in odd ones, so that no line always follows the same one
 * (writing the empty program before each case interleaves them); WARMUP
 * rounds run first and are not counted. Every process gets STDIN-FILE on stdin and
 * /dev/null as stdout and stderr. Lines that share a LABEL are counted
 * together. One line a label is printed, tab-separated:
 *
 *   LABEL  CALLS  MEDIAN_NS  P90_NS  MIN_NS  RSS_MEDIAN_KIB  RSS_MAX_KIB  FAILED
 *
 * RSS is ru_maxrss from wait4; FAILED counts the calls that did not exit 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

#define MAX_LINES 64
#define MAX_ARGS 32

struct line {
    char *label;
    char *input;
    char *argv[MAX_ARGS + 1];
    int group;
};

struct group {
    char *label;
    long long *ns;
    long *rss;
    size_t n, cap;
    long failed;
};

static struct line lines[MAX_LINES];
static struct group groups[MAX_LINES];
static int nlines, ngroups;

static void die(const char *what) {
    perror(what);
    exit(2);
}

static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int cmp_l(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void read_spec(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, f)) > 0) {
        if (buf[len - 1] == '\n') buf[--len] = 0;
        if (len == 0) continue;
        if (nlines == MAX_LINES) {
            fprintf(stderr, "startup_driver: more than %d lines\n", MAX_LINES);
            exit(2);
        }
        struct line *l = &lines[nlines];
        char *s = strdup(buf), *save = NULL;
        int field = 0, arg = 0;
        for (char *tok = strtok_r(s, "\t", &save); tok; tok = strtok_r(NULL, "\t", &save), field++) {
            if (field == 0) l->label = tok;
            else if (field == 1) l->input = tok;
            else if (arg < MAX_ARGS) l->argv[arg++] = tok;
        }
        if (arg == 0) {
            fprintf(stderr, "startup_driver: line %d has no program\n", nlines + 1);
            exit(2);
        }
        l->argv[arg] = NULL;
        l->group = -1;
        for (int g = 0; g < ngroups; g++)
            if (strcmp(groups[g].label, l->label) == 0) l->group = g;
        if (l->group < 0) {
            l->group = ngroups;
            groups[ngroups++].label = l->label;
        }
        nlines++;
    }
    free(buf);
    fclose(f);
}

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void run(struct line *l, int keep) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, l->input, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int status;
    struct rusage ru;
    long long t0 = now_ns();
    int err = posix_spawn(&pid, l->argv[0], &fa, NULL, l->argv, environ);
    if (err) {
        errno = err;
        die(l->argv[0]);
    }
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) die("wait4");
    long long t1 = now_ns();
    posix_spawn_file_actions_destroy(&fa);
    if (!keep) return;
    struct group *g = &groups[l->group];
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 256;
        g->ns = realloc(g->ns, g->cap * sizeof *g->ns);
        g->rss = realloc(g->rss, g->cap * sizeof *g->rss);
        if (!g->ns || !g->rss) die("realloc");
    }
    g->ns[g->n] = t1 - t0;
    g->rss[g->n] = ru.ru_maxrss;
    g->n++;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) g->failed++;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: startup_driver SPEC ROUNDS WARMUP\n");
        return 2;
    }
    read_spec(argv[1]);
    long rounds = atol(argv[2]), warmup = atol(argv[3]);
    if (rounds < 1 || nlines == 0) {
        fprintf(stderr, "startup_driver: nothing to run\n");
        return 2;
    }
    for (long r = 0; r < warmup + rounds; r++)
        for (int i = 0; i < nlines; i++) run(&lines[r % 2 ? nlines - 1 - i : i], r >= warmup);
    for (int i = 0; i < ngroups; i++) {
        struct group *g = &groups[i];
        qsort(g->ns, g->n, sizeof *g->ns, cmp_ll);
        qsort(g->rss, g->n, sizeof *g->rss, cmp_l);
        size_t p90 = (g->n * 9 + 9) / 10 - 1;
        printf("%s\t%zu\t%lld\t%lld\t%lld\t%ld\t%ld\t%ld\n", g->label, g->n, g->ns[g->n / 2],
               g->ns[p90], g->ns[0], g->rss[g->n / 2], g->rss[g->n - 1], g->failed);
    }
    return 0;
}
