/* A c8league bot in C: a random playable card, else a random legal move (draw).
 *
 * The policy of the built-in `random:playable_first=true`, with its own random numbers
 * (splitmix64, a generator per match seeded from the seed of that match). It speaks the
 * line protocol of docs/protocol.md and announces four capabilities in its hello:
 * `match_start` (it plays match after match in one process), `concurrent` (it plays
 * several matches at once: their messages are interleaved, each naming its match with
 * `"match"`), `changes` (lean observations: it reads only the legal moves of each
 * request, so it needs no view at all) and `skip_forced` (it is not asked when a draw is
 * its only legal move).
 *
 * It reads lines, not JSON: it looks for the few fields it needs by their text, and
 * relies on c8league writing `"match"` right after `"type"` (a bot should not: the
 * protocol promises no order of fields). The generator of match N is the slot N modulo
 * SLOTS of a table: matches in flight are few and their numbers increase, so two of them
 * never share a slot. Messages that name no match (the hello, and every message from a
 * c8league that ignores `concurrent`) use slot 0. Answers to the requests read in one go are
 * written in one go, before the bot waits for input again.
 *
 * Built by benchmarks/bots.py with the machine's C compiler (cc -O2 -o random_bot random_bot.c).
 * With the argument --count it writes "started" to its standard error when it starts
 * (the benchmark counts the processes started in their logs).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 4096 /* a power of two */
static uint64_t states[SLOTS];

static uint64_t next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The match named right after the message's type (`rest` points just past it), or -1
 * for a message that names none. */
static long long match_of(const char *rest) {
    if (strncmp(rest, ",\"match\":", 9) != 0) {
        return -1;
    }
    return strtoll(rest + 9, NULL, 10);
}

static uint64_t *state_of(long long match) {
    return &states[match < 0 ? 0 : (unsigned long long)match & (SLOTS - 1)];
}

static void seed_from(const char *line, uint64_t *state) {
    const char *at = strstr(line, "\"seed\":");
    *state = at != NULL ? strtoull(at + 7, NULL, 10) : 1;
}

/* Is the legal move starting at `text` (after its opening quote) a card played? */
static int playable(const char *text) {
    return strncmp(text, "draw\"", 5) != 0 && strncmp(text, "pass\"", 5) != 0 &&
           strncmp(text, "nominate:", 9) != 0;
}

static void choose(const char *line, long long match) {
    const char *legal = strstr(line, "\"legal\":[");
    int count = 0, plays = 0;
    int play_index[256];
    if (legal == NULL) {
        return;
    }
    for (const char *p = legal + 9; *p != ']' && *p != '\0'; p++) {
        if (*p != '"') {
            continue;
        }
        if (playable(p + 1) && plays < 256) {
            play_index[plays++] = count;
        }
        count++;
        p = strchr(p + 1, '"'); /* the closing quote: move texts hold no escapes */
        if (p == NULL) {
            break;
        }
    }
    uint64_t *state = state_of(match);
    int index = plays > 0 ? play_index[next(state) % (uint64_t)plays]
                          : (int)(next(state) % (uint64_t)count);
    if (match < 0) {
        printf("{\"type\":\"move\",\"index\":%d}\n", index);
    } else {
        printf("{\"type\":\"move\",\"match\":%lld,\"index\":%d}\n", match, index);
    }
}

/* Input, read in large pieces: the lines c8league wrote in one go are all at hand. */
static char *input;
static size_t input_size, input_start, input_end;

/* The next line, its newline replaced by a NUL; NULL at the end of input. Before waiting
 * for input, every answer written so far is flushed. */
static char *next_line(void) {
    for (;;) {
        char *newline = memchr(input + input_start, '\n', input_end - input_start);
        if (newline != NULL) {
            char *line = input + input_start;
            *newline = '\0';
            input_start = (size_t)(newline - input) + 1;
            return line;
        }
        fflush(stdout);
        memmove(input, input + input_start, input_end - input_start);
        input_end -= input_start;
        input_start = 0;
        if (input_end == input_size) {
            input_size *= 2;
            input = realloc(input, input_size);
            if (input == NULL) {
                return NULL;
            }
        }
        ssize_t got = read(0, input + input_end, input_size - input_end);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return NULL;
        }
        input_end += (size_t)got;
    }
}

int main(int argc, char **argv) {
    char *line;
    input_size = 1 << 16;
    input = malloc(input_size);
    if (input == NULL) {
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "--count") == 0) { /* counted in its log */
        fputs("started\n", stderr);
        fflush(stderr);
    }
    while ((line = next_line()) != NULL) {
        if (strncmp(line, "{\"type\":\"move\"", 14) == 0) {
            choose(line, match_of(line + 14));
        } else if (strncmp(line, "{\"type\":\"hello\"", 15) == 0) {
            seed_from(line, state_of(-1));
            fputs("{\"type\":\"hello\",\"name\":\"random-c\",\"version\":\"1.0\",\"capabilities\":"
                  "[\"match_start\",\"concurrent\",\"changes\",\"skip_forced\"]}\n",
                  stdout);
        } else if (strncmp(line, "{\"type\":\"match_start\"", 21) == 0) {
            long long match = match_of(line + 21);
            seed_from(line, state_of(match));
            if (match < 0) { /* from a c8league that ignores `concurrent`: answered */
                fputs("{\"type\":\"match_start\"}\n", stdout);
            }
        } else if (strncmp(line, "{\"type\":\"quit\"", 14) == 0) {
            break;
        }
    }
    fflush(stdout);
    free(input);
    return 0;
}
