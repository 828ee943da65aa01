/* A c8league bot in C: a random playable card, else a random legal move (draw).
 *
 * The policy of the built-in `random:playable_first=true`, with its own random numbers
 * (splitmix64, seeded from the seed of each match). It speaks the line protocol of
 * docs/protocol.md and announces three capabilities in its hello: `match_start` (it
 * plays match after match in one process), `changes` (lean observations: it reads
 * only the legal moves of each request, so it needs no view at all) and `skip_forced`
 * (it is not asked when a draw is its only legal move).
 *
 * Built by benchmarks/bots.py with the machine's C compiler (cc -O2 -o random_bot random_bot.c).
 * An optional argument names a file to which the bot appends a line when it starts
 * (the benchmark counts the processes started).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 1;

static uint64_t next(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void seed_from(const char *line) {
    const char *at = strstr(line, "\"seed\":");
    if (at != NULL) {
        state = strtoull(at + 7, NULL, 10);
    }
}

/* Is the legal move starting at `text` (after its opening quote) a card played? */
static int playable(const char *text) {
    return strncmp(text, "draw\"", 5) != 0 && strncmp(text, "pass\"", 5) != 0 &&
           strncmp(text, "nominate:", 9) != 0;
}

static void choose(const char *line) {
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
    int index = plays > 0 ? play_index[next() % (uint64_t)plays] : (int)(next() % (uint64_t)count);
    printf("{\"type\":\"move\",\"index\":%d}\n", index);
    fflush(stdout);
}

int main(int argc, char **argv) {
    char *line = NULL;
    size_t size = 0;
    if (argc > 1) {
        FILE *starts = fopen(argv[1], "a");
        if (starts != NULL) {
            fputs("started\n", starts);
            fclose(starts);
        }
    }
    while (getline(&line, &size, stdin) != -1) {
        if (strncmp(line, "{\"type\":\"move\"", 14) == 0) {
            choose(line);
        } else if (strncmp(line, "{\"type\":\"hello\"", 15) == 0) {
            seed_from(line);
            puts("{\"type\":\"hello\",\"name\":\"random-c\",\"version\":\"1.0\","
                 "\"capabilities\":[\"match_start\",\"changes\",\"skip_forced\"]}");
            fflush(stdout);
        } else if (strncmp(line, "{\"type\":\"match_start\"", 21) == 0) {
            seed_from(line);
            puts("{\"type\":\"match_start\"}");
            fflush(stdout);
        } else if (strncmp(line, "{\"type\":\"quit\"", 14) == 0) {
            break;
        }
    }
    free(line);
    return 0;
}
