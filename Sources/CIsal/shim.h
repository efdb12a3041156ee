#ifndef SEPIA_CISAL_SHIM_H
#define SEPIA_CISAL_SHIM_H
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>
#endif
