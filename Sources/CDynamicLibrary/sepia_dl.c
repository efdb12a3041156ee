/*
 * The loader of sepia_dl.h.
 */
#include "sepia_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int owns(const sepia_dl_loader *loader, const sepia_dl_library *library) {
    return library >= loader->libraries && library < loader->libraries + loader->library_count;
}

/* Opens every library (the first failure is the one reported), then finds the functions. */
static int open_and_resolve(sepia_dl_loader *loader) {
    char *error = loader->error;
    size_t size = sizeof(loader->error);
    if (loader->prerequisite != NULL && !sepia_dl_load(loader->prerequisite, error, size)) {
        return 0;
    }
    for (size_t i = 0; i < loader->library_count; i++) {
        sepia_dl_library *library = &loader->libraries[i];
        library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (library->handle == NULL && error[0] == 0) {
            const char *reason = dlerror();
            snprintf(error, size, "%s", reason != NULL ? reason : library->soname);
        }
    }
    if (error[0] != 0) {
        return 0;
    }
    for (size_t i = 0; i < loader->symbol_count; i++) {
        const sepia_dl_symbol *symbol = &loader->symbols[i];
        if (!owns(loader, symbol->library)) {
            continue;
        }
        void *address = dlsym(symbol->library->handle, symbol->name);
        if (address == NULL) {
            snprintf(error, size, "%s has no %s", symbol->library->name, symbol->name);
            return 0;
        }
        memcpy(symbol->pointer, &address, sizeof(address));
    }
    return loader->initialize == NULL || loader->initialize(error, size);
}

int sepia_dl_load(sepia_dl_loader *loader, char *error, size_t size) {
    pthread_mutex_lock(&loader->lock);
    if (!loader->attempted) {
        loader->attempted = 1;
        loader->loaded = open_and_resolve(loader);
    }
    int loaded = loader->loaded;
    pthread_mutex_unlock(&loader->lock);
    if (!loaded && error != NULL && size > 0) {
        if (loader->error[0] != 0) {
            snprintf(error, size, "%s", loader->error);
        } else {
            snprintf(error, size, "%s could not be loaded", loader->description);
        }
    }
    return loaded;
}

void sepia_dl_require(sepia_dl_loader *loader, const char *name) {
    char error[600];
    if (sepia_dl_load(loader, error, sizeof(error))) {
        return;
    }
    fprintf(stderr, "%s: %s is in %s, which could not be loaded (%s); install Debian's %s\n", loader->component, name,
        loader->description, error, loader->packages);
    abort();
}
