/*
 * The CPU time of one encode, whatever threads libavcodec and libx264 start for it.
 *
 * On Linux a new thread takes the name of the thread that creates it. So the thread that runs an encode takes a
 * name of its own ("sepia-enc-12") before it opens the decoder and the encoder, every thread they start (frame
 * threads, x264's lookahead and slice threads) carries it, and the encode's CPU time is the sum over the
 * process's threads of that name (/proc/self/task/TID/comm and .../stat). Other work of the process, another
 * encode included, is not counted.
 */
#define _GNU_SOURCE
#include "sepia_ffmpeg.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sepia_encode_counter = 0;

void sepia_thread_group_enter(char name[16], char previous[16]) {
    memset(previous, 0, 16);
    pthread_getname_np(pthread_self(), previous, 16);
    int number = __atomic_add_fetch(&sepia_encode_counter, 1, __ATOMIC_RELAXED);
    snprintf(name, 16, "sepia-enc-%d", number % 100000);
    pthread_setname_np(pthread_self(), name);
}

void sepia_thread_group_leave(const char previous[16]) {
    pthread_setname_np(pthread_self(), previous);
}

/* Reads at most size - 1 bytes of `path` into `buffer`; returns the count, or -1. */
static ssize_t sepia_read_small_file(const char *path, char *buffer, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t count = read(fd, buffer, size - 1);
    close(fd);
    if (count >= 0) {
        buffer[count] = 0;
    }
    return count;
}

double sepia_thread_group_cpu_seconds(const char *name) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) {
        return -1;
    }
    long ticks_per_second = sysconf(_SC_CLK_TCK);
    unsigned long long ticks = 0;
    struct dirent *entry;
    char path[64];
    char text[512];
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", entry->d_name);
        ssize_t count = sepia_read_small_file(path, text, sizeof(text));
        if (count <= 0) {
            continue; /* the thread has ended meanwhile */
        }
        if (text[count - 1] == '\n') {
            text[count - 1] = 0;
        }
        if (strcmp(text, name) != 0) {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/self/task/%s/stat", entry->d_name);
        if (sepia_read_small_file(path, text, sizeof(text)) <= 0) {
            continue;
        }
        /* After the name in parentheses (which may hold spaces): state, then fields 4 to 13, utime and stime. */
        const char *after = strrchr(text, ')');
        unsigned long long user = 0, system = 0;
        if (after != NULL && sscanf(after + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user, &system) == 2) {
            ticks += user + system;
        }
    }
    closedir(tasks);
    return ticks_per_second > 0 ? (double)ticks / (double)ticks_per_second : -1;
}
