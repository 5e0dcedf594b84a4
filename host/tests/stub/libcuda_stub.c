/* A recording stand-in for the NVIDIA driver library (libcuda.so), for the host's tests on a
 * machine without a GPU (host/tests/stub_driver.rs builds it with `cc` and puts its directory
 * first on LD_LIBRARY_PATH; cudarc's dynamic loading dlopens "libcuda.so" and resolves every
 * entry point by name).
 *
 * It exports the driver entry points ptx-sync calls (gpu::DRIVER_SYMBOLS), answers with one fake
 * device (compute capability 9.0, 132 SMs: an H200's shape) and appends one line per call, with
 * its arguments, to the file named by CUDA_STUB_LOG. Device memory is host memory (a device
 * pointer is the host address of a 256-byte-aligned block); every copy and memset is checked
 * against the allocation table. Kernels do nothing except four recorded effects that let the
 * tests prove the host reads results back:
 *   tiled_copy_*     copies the tensor map's source tensor to `out` (CUDA_STUB_CORRUPT=1 flips
 *                    one byte);
 *   litmus_*         with CUDA_STUB_LITMUS_OUT="w0,w1,w2,w3", writes those words into every
 *                    instance's output and its done count (sync[4 + n + i] = n_testers / n, every
 *                    role reported) — except the last CUDA_STUB_LITMUS_UNREPORTED instances, which
 *                    get neither —, and with CUDA_STUB_LITMUS_SYNC="a,b" the start-barrier and
 *                    stress timeout counters sync[2], sync[3];
 *   ptxsync_litmus_file  (the kernel generated from a litmus file) with
 *                    CUDA_STUB_FILE_OUT="w0,w1,..." writes those words into every instance's
 *                    output record, and with CUDA_STUB_FILE_MEM="v0,v1,..." value v_k into
 *                    location k of every instance;
 *   bench_fence_*    writes iters * (10 + cost) cycles per warp (cost: sc 400, acq_rel 200,
 *                    release/acquire 100, none 0).
 * A virtual clock times events: a launch advances it by 1 ms, a DtoD copy by 0.5 ms, and most
 * other calls by 100 ms, so a timing window around anything but the launch or copy shows.
 *
 * Other knobs: CUDA_STUB_DRIVER_VERSION (default 13000), CUDA_STUB_DEVICES (default 1),
 * CUDA_STUB_OCCUPANCY (blocks per SM, default 1),
 * CUDA_STUB_REJECT_CUBIN=1, CUDA_STUB_REJECT_PTX=1 (JIT error with a log),
 * CUDA_STUB_LAUNCH_ERROR=<code> (cuLaunchKernelEx fails with it), CUDA_STUB_HANG=1 (no kernel
 * ever finishes: cuStreamQuery answers CUDA_ERROR_NOT_READY), CUDA_STUB_SET_WORD="off,value"
 * (every launch stores the 32-bit value at the device pointer that is the parameter at byte
 * offset `off`: a kernel reporting a device-side timeout into its status word).
 * Launch attributes are logged as cluster=x,y,z (id 4), pdl=v (id 6), idN (others).
 * Build variants: -DSTUB_NO_CUINIT (a library without cuInit), -DSTUB_NO_ELAPSED_V2 (a driver
 * before CUDA 12.8: cuEventElapsedTime only).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

enum {
    OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, NO_DEVICE = 100, INVALID_DEVICE = 101,
    NO_BINARY_FOR_GPU = 209, INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
};

static int initialized;
static double clock_ms;

static void logf_(const char *fmt, ...) {
    const char *p = getenv("CUDA_STUB_LOG");
    if (!p || !*p) return;
    FILE *f = fopen(p, "a");
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

static long envl(const char *k, long d) {
    const char *v = getenv(k);
    return v && *v ? strtol(v, NULL, 0) : d;
}

/* ---- allocations --------------------------------------------------------------------------- */
#define MAX_ALLOCS 4096
static struct { CUdeviceptr p; size_t n; } allocs[MAX_ALLOCS];

/* Whether [p, p+n) lies inside one live allocation. */
static int in_bounds(CUdeviceptr p, size_t n) {
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (allocs[i].p && p >= allocs[i].p && p + n <= allocs[i].p + allocs[i].n) return 1;
    return 0;
}

/* ---- errors -------------------------------------------------------------------------------- */
static const char *err_name(CUresult e) {
    switch (e) {
    case 0: return "CUDA_SUCCESS";
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case 218: return "CUDA_ERROR_INVALID_PTX";
    case 222: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    case 400: return "CUDA_ERROR_INVALID_HANDLE";
    case 500: return "CUDA_ERROR_NOT_FOUND";
    case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case 715: return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
    case 719: return "CUDA_ERROR_LAUNCH_FAILED";
    default: return NULL;
    }
}
CUresult cuGetErrorName(CUresult e, const char **s) {
    *s = err_name(e);
    return *s ? OK : INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    *s = err_name(e) ? "stub driver error" : NULL;
    return *s ? OK : INVALID_VALUE;
}

/* ---- init, devices ------------------------------------------------------------------------- */
#ifndef STUB_NO_CUINIT
CUresult cuInit(unsigned flags) {
    logf_("cuInit flags=%u", flags);
    if (envl("CUDA_STUB_DEVICES", 1) == 0) return NO_DEVICE;
    initialized = 1;
    return OK;
}
#endif
CUresult cuDriverGetVersion(int *v) {
    *v = (int)envl("CUDA_STUB_DRIVER_VERSION", 13000);
    logf_("cuDriverGetVersion -> %d", *v);
    return OK;
}
CUresult cuDeviceGetCount(int *n) {
    if (!initialized) return NOT_INITIALIZED;
    *n = (int)envl("CUDA_STUB_DEVICES", 1);
    logf_("cuDeviceGetCount -> %d", *n);
    return OK;
}
CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    logf_("cuDeviceGet ordinal=%d", ordinal);
    if (ordinal < 0 || ordinal >= envl("CUDA_STUB_DEVICES", 1)) return INVALID_DEVICE;
    *d = ordinal;
    return OK;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    logf_("cuDeviceGetName dev=%d len=%d", d, len);
    snprintf(name, (size_t)len, "ptx-sync stub H200");
    return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
    switch (attr) {
    case 16: *v = 132; break;  /* MULTIPROCESSOR_COUNT */
    case 39: *v = 2048; break; /* MAX_THREADS_PER_MULTIPROCESSOR */
    case 75: *v = 9; break;    /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *v = 0; break;    /* COMPUTE_CAPABILITY_MINOR */
    case 120: *v = 1; break;   /* CLUSTER_LAUNCH */
    default: logf_("cuDeviceGetAttribute dev=%d attr=%d unknown", d, attr); return INVALID_VALUE;
    }
    logf_("cuDeviceGetAttribute dev=%d attr=%d -> %d", d, attr, *v);
    return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d) {
    *b = (size_t)141 << 30;
    logf_("cuDeviceTotalMem_v2 dev=%d", d);
    return OK;
}
static int ctx_token;
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
    logf_("cuDevicePrimaryCtxRetain dev=%d", d);
    *c = &ctx_token;
    return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    logf_("cuDevicePrimaryCtxRelease_v2 dev=%d", d);
    return OK;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    logf_("cuCtxSetCurrent ctx=%s", c == &ctx_token ? "primary" : "other");
    return c == &ctx_token ? OK : INVALID_VALUE;
}

/* ---- modules ------------------------------------------------------------------------------- */
struct module { char *image; size_t len; int cubin; };
struct function { char name[128]; };

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, int *opts, void **vals) {
    const char *img = image;
    uint32_t magic;
    memcpy(&magic, img, 4);
    int cubin = memcmp(img, "\x7f" "ELF", 4) == 0;
    int fatbin = magic == 0xBA55ED50u;
    char *log = NULL;
    size_t log_len = 0;
    for (unsigned i = 0; i < n; i++) {
        if (opts[i] == 5) log = vals[i];                            /* ERROR_LOG_BUFFER */
        if (opts[i] == 6) log_len = (size_t)(uintptr_t)vals[i];     /* ..._SIZE_BYTES */
    }
    /* Like the driver, the stub reads as far as the image's headers say (and copies it all). */
    size_t len;
    if (cubin) {
        /* ELF64: the section-header and program-header tables, whichever ends later. */
        uint64_t shoff, phoff; uint16_t shentsize, shnum, phentsize, phnum;
        memcpy(&phoff, img + 0x20, 8);
        memcpy(&shoff, img + 0x28, 8);
        memcpy(&phentsize, img + 0x36, 2);
        memcpy(&phnum, img + 0x38, 2);
        memcpy(&shentsize, img + 0x3a, 2);
        memcpy(&shnum, img + 0x3c, 2);
        size_t sh_end = shoff + (size_t)shnum * shentsize, ph_end = phoff + (size_t)phnum * phentsize;
        len = sh_end > ph_end ? sh_end : ph_end;
    } else if (fatbin) {
        /* header: magic, version:u16, header size:u16, size of the entries:u64 */
        uint16_t hsize; uint64_t fsize;
        memcpy(&hsize, img + 6, 2);
        memcpy(&fsize, img + 8, 8);
        len = hsize + fsize;
    } else {
        len = strlen(img);
    }
    logf_("cuModuleLoadDataEx image=%s bytes=%zu options=%u error_log=%s",
          cubin ? "cubin" : fatbin ? "fatbin" : "ptx", len, n, log && log_len ? "yes" : "no");
    if (cubin && envl("CUDA_STUB_REJECT_CUBIN", 0)) {
        if (log && log_len) snprintf(log, log_len, "stub: this cubin is not for the device");
        return NO_BINARY_FOR_GPU;
    }
    if (fatbin) cubin = 1; /* symbols are looked up in the image's bytes, as for a cubin */
    if (!cubin && envl("CUDA_STUB_REJECT_PTX", 0)) {
        if (log && log_len)
            snprintf(log, log_len, "ptxas application ptx input, line 7; fatal   : stub JIT error\n"
                                   "ptxas fatal   : Ptx assembly aborted due to errors\n");
        return INVALID_PTX;
    }
    if (!cubin && strstr(img, ".version") == NULL) return INVALID_PTX;
    struct module *mod = calloc(1, sizeof *mod);
    mod->image = malloc(len + 1);
    memcpy(mod->image, img, len);
    mod->image[len] = 0;
    mod->len = len;
    mod->cubin = cubin;
    *m = mod;
    return OK;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    struct module *mod = m;
    clock_ms += 100;
    int found = 0;
    if (mod->cubin) {
        /* The symbol's name, NUL-terminated, in the ELF string table. */
        size_t k = strlen(name);
        for (size_t i = 0; i + k < mod->len && !found; i++)
            found = (i == 0 || mod->image[i - 1] == 0) && memcmp(mod->image + i, name, k + 1) == 0;
    } else {
        char head[160];
        snprintf(head, sizeof head, ".entry %s(", name);
        found = strstr(mod->image, head) != NULL;
    }
    logf_("cuModuleGetFunction name=%s found=%d", name, found);
    if (!found) return NOT_FOUND;
    struct function *fn = calloc(1, sizeof *fn);
    snprintf(fn->name, sizeof fn->name, "%s", name);
    *f = fn;
    return OK;
}
CUresult cuModuleUnload(CUmodule m) {
    logf_("cuModuleUnload");
    free(((struct module *)m)->image);
    free(m);
    return OK;
}
CUresult cuFuncSetAttribute(CUfunction f, int attr, int v) {
    logf_("cuFuncSetAttribute fn=%s attr=%d value=%d", ((struct function *)f)->name, attr, v);
    return OK;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads, size_t smem) {
    *n = (int)envl("CUDA_STUB_OCCUPANCY", 1);
    logf_("cuOccupancyMaxActiveBlocksPerMultiprocessor fn=%s threads=%d smem=%zu -> %d",
          ((struct function *)f)->name, threads, smem, *n);
    return OK;
}

/* ---- memory -------------------------------------------------------------------------------- */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
    clock_ms += 100;
    void *m = NULL;
    if (n == 0 || posix_memalign(&m, 256, n)) return INVALID_VALUE;
    memset(m, 0x5c, n); /* not zero: the host must initialize what it reads */
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (!allocs[i].p) {
            allocs[i].p = (CUdeviceptr)(uintptr_t)m;
            allocs[i].n = n;
            *p = allocs[i].p;
            logf_("cuMemAlloc_v2 bytes=%zu -> 0x%llx", n, *p);
            return OK;
        }
    free(m);
    return INVALID_VALUE;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (allocs[i].p == p) {
            logf_("cuMemFree_v2 ptr=0x%llx", p);
            free((void *)(uintptr_t)p);
            allocs[i].p = 0;
            return OK;
        }
    logf_("cuMemFree_v2 ptr=0x%llx unknown", p);
    return INVALID_VALUE;
}
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n) {
    clock_ms += 100;
    logf_("cuMemsetD32_v2 ptr=0x%llx value=0x%x words=%zu", p, v, n);
    if (!in_bounds(p, n * 4)) return INVALID_VALUE;
    uint32_t *w = (uint32_t *)(uintptr_t)p;
    for (size_t i = 0; i < n; i++) w[i] = v;
    return OK;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) {
    clock_ms += 100;
    uint32_t first = 0;
    memcpy(&first, s, n < 4 ? n : 4);
    logf_("cuMemcpyHtoD_v2 dst=0x%llx bytes=%zu first=%u", d, n, first);
    if (!in_bounds(d, n)) return INVALID_VALUE;
    memcpy((void *)(uintptr_t)d, s, n);
    return OK;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) {
    clock_ms += 100;
    logf_("cuMemcpyDtoH_v2 src=0x%llx bytes=%zu", s, n);
    if (!in_bounds(s, n)) return INVALID_VALUE;
    memcpy(d, (void *)(uintptr_t)s, n);
    return OK;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
    logf_("cuMemcpyDtoDAsync_v2 dst=0x%llx src=0x%llx bytes=%zu stream=%p", d, s, n, st);
    if (!in_bounds(d, n) || !in_bounds(s, n)) return INVALID_VALUE;
    memcpy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
    clock_ms += 0.5;
    return OK;
}

/* ---- tensor maps --------------------------------------------------------------------------- */
/* The stub's CUtensorMap (128 bytes): magic, dtype, rank, addr, dims[5], strides[4], box[5]. */
struct tmap { uint32_t magic, dtype, rank, pad; uint64_t addr; uint64_t dims[5]; uint64_t strides[4]; uint32_t box[5]; };

CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box, const unsigned *estr,
                                int interleave, int swizzle, int l2, int oob) {
    char d[128] = "", s[128] = "", b[128] = "", e[128] = "";
    for (unsigned i = 0; i < rank && i < 5; i++) {
        snprintf(d + strlen(d), sizeof d - strlen(d), "%s%llu", i ? "," : "", (unsigned long long)dims[i]);
        snprintf(b + strlen(b), sizeof b - strlen(b), "%s%u", i ? "," : "", box[i]);
        snprintf(e + strlen(e), sizeof e - strlen(e), "%s%u", i ? "," : "", estr[i]);
        if (i + 1 < rank)
            snprintf(s + strlen(s), sizeof s - strlen(s), "%s%llu", i ? "," : "", (unsigned long long)strides[i]);
    }
    logf_("cuTensorMapEncodeTiled dtype=%d rank=%u addr=0x%llx dims=%s strides=%s box=%s elem_strides=%s "
          "interleave=%d swizzle=%d l2=%d oob=%d map_aligned64=%d",
          dtype, rank, (unsigned long long)(uintptr_t)addr, d, s, b, e, interleave, swizzle, l2, oob,
          ((uintptr_t)map % 64) == 0);
    if (rank < 1 || rank > 5 || ((uintptr_t)addr % 16) != 0) return INVALID_VALUE;
    struct tmap t = {0x544d4150u, (uint32_t)dtype, rank, 0, (uint64_t)(uintptr_t)addr, {0}, {0}, {0}};
    for (unsigned i = 0; i < rank; i++) { t.dims[i] = dims[i]; t.box[i] = box[i]; }
    for (unsigned i = 0; i + 1 < rank; i++) t.strides[i] = strides[i];
    memset(map, 0, 128);
    memcpy(map, &t, sizeof t);
    return OK;
}

/* ---- launches ------------------------------------------------------------------------------ */
typedef struct { int id; char pad[4]; union { char pad[64]; struct { unsigned x, y, z; } cluster; int pdl; } v; } attr_t;
typedef struct {
    unsigned gx, gy, gz, bx, by, bz, smem;
    CUstream stream;
    attr_t *attrs;
    unsigned n_attrs;
} launch_cfg;

static uint64_t u64_at(const unsigned char *p, size_t off) { uint64_t v; memcpy(&v, p + off, 8); return v; }
static uint32_t u32_at(const unsigned char *p, size_t off) { uint32_t v; memcpy(&v, p + off, 4); return v; }

static void effects(const char *name, const unsigned char *pb, size_t size, const launch_cfg *c) {
    const char *sw = getenv("CUDA_STUB_SET_WORD"); /* "off,value": *(u32 *)param_u64_at(off) = value */
    if (sw && *sw) {
        unsigned long off = 0, val = 0;
        sscanf(sw, "%lu,%lu", &off, &val);
        CUdeviceptr w = off + 8 <= size ? u64_at(pb, off) : 0;
        if (in_bounds(w, 4)) {
            *(uint32_t *)(uintptr_t)w = (uint32_t)val;
            logf_("effect set_word: 0x%llx = %lu", w, val);
        } else {
            logf_("effect set_word: parameter at %lu is not a device pointer", off);
        }
    }
    if (strncmp(name, "tiled_copy_", 11) == 0 && size >= 32) {
        struct tmap t;
        CUdeviceptr tm = u64_at(pb, 0), out = u64_at(pb, 8);
        if (!in_bounds(tm, 128)) { logf_("effect tiled_copy: tensor map not in device memory"); return; }
        memcpy(&t, (void *)(uintptr_t)tm, sizeof t);
        size_t n = (size_t)t.dims[0] * t.dims[1] * 4;
        if (t.magic != 0x544d4150u || !in_bounds(out, n) || !in_bounds(t.addr, n)) {
            logf_("effect tiled_copy: bad tensor map or output");
            return;
        }
        memcpy((void *)(uintptr_t)out, (void *)(uintptr_t)t.addr, n);
        if (envl("CUDA_STUB_CORRUPT", 0)) ((unsigned char *)(uintptr_t)out)[n / 3] ^= 0xff;
        logf_("effect tiled_copy: copied %zu bytes", n);
    } else if (strncmp(name, "litmus_", 7) == 0 && size >= 80 && getenv("CUDA_STUB_LITMUS_OUT")) {
        unsigned w[4] = {0};
        sscanf(getenv("CUDA_STUB_LITMUS_OUT"), "%u,%u,%u,%u", &w[0], &w[1], &w[2], &w[3]);
        CUdeviceptr out = u64_at(pb, 24), sp = u64_at(pb, 40);
        uint32_t n = u32_at(pb, 56), testers = u32_at(pb, 68);
        /* The last CUDA_STUB_LITMUS_UNREPORTED instances never run: no output, no done count. */
        uint32_t skip = (uint32_t)envl("CUDA_STUB_LITMUS_UNREPORTED", 0), ran = skip < n ? n - skip : 0;
        if (!in_bounds(out, (size_t)n * 16)) { logf_("effect litmus: out too small"); return; }
        if (!in_bounds(sp, (4 + 2 * (size_t)n) * 4)) { logf_("effect litmus: sync too small"); return; }
        uint32_t *o = (uint32_t *)(uintptr_t)out, *sy32 = (uint32_t *)(uintptr_t)sp;
        for (uint32_t i = 0; i < ran; i++) {
            memcpy(o + 4 * i, w, 16);
            sy32[4 + n + i] = n ? testers / n : 0; /* every role of the instance reported */
        }
        logf_("effect litmus: wrote %u instances", ran);
        const char *sy = getenv("CUDA_STUB_LITMUS_SYNC"); /* "a,b": sync[2] = a, sync[3] = b */
        if (sy) sscanf(sy, "%u,%u", sy32 + 2, sy32 + 3);
    } else if (strcmp(name, "ptxsync_litmus_file") == 0 && size >= 80 && getenv("CUDA_STUB_FILE_OUT")) {
        /* params: mem@0, out@24, n_instances@48, out_words@52, n_locs@56, mem_words@60 */
        unsigned w[16] = {0}, v[16] = {0};
        int nw = 0, nv = 0;
        for (const char *q = getenv("CUDA_STUB_FILE_OUT"); *q && nw < 16; nw++) {
            w[nw] = (unsigned)strtoul(q, (char **)&q, 0);
            if (*q == ',') q++;
        }
        const char *m = getenv("CUDA_STUB_FILE_MEM");
        for (const char *q = m ? m : ""; *q && nv < 16; nv++) {
            v[nv] = (unsigned)strtoul(q, (char **)&q, 0);
            if (*q == ',') q++;
        }
        CUdeviceptr mem = u64_at(pb, 0), out = u64_at(pb, 24);
        uint32_t n = u32_at(pb, 48), ow = u32_at(pb, 52), nl = u32_at(pb, 56), mw = u32_at(pb, 60);
        if (!in_bounds(out, (size_t)n * ow * 4) || !in_bounds(mem, (size_t)mw * 4) || nl == 0) {
            logf_("effect litmus file: out or mem too small");
            return;
        }
        uint32_t *o = (uint32_t *)(uintptr_t)out, *mm = (uint32_t *)(uintptr_t)mem;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < ow && k < (uint32_t)nw; k++) o[i * ow + k] = w[k];
        for (uint32_t line = 0; line * 32 < mw; line++)
            if ((int)(line % nl) < nv) mm[line * 32] = v[line % nl];
        logf_("effect litmus file: wrote %u instances of %u words, %d location values", n, ow, nv);
    } else if (strncmp(name, "bench_fence_", 12) == 0 && size >= 40) {
        CUdeviceptr out = u64_at(pb, 0);
        uint32_t iters = u32_at(pb, 32), warps = c->bx / 32;
        uint64_t cost = strstr(name, "_sc_") ? 400 : strstr(name, "_acq_rel_") ? 200
                        : strcmp(name, "bench_fence_none") == 0 ? 0 : 100;
        if (!in_bounds(out, (size_t)warps * 8)) { logf_("effect bench: out too small"); return; }
        for (uint32_t k = 0; k < warps; k++) ((uint64_t *)(uintptr_t)out)[k] = (uint64_t)iters * (10 + cost);
    }
}

CUresult cuLaunchKernelEx(const launch_cfg *c, CUfunction f, void **kernel_params, void **extra) {
    const char *name = ((struct function *)f)->name;
    char attrs[256] = "";
    for (unsigned i = 0; i < c->n_attrs; i++) {
        if (c->attrs[i].id == 4)
            snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), "%scluster=%u,%u,%u", i ? ";" : "",
                     c->attrs[i].v.cluster.x, c->attrs[i].v.cluster.y, c->attrs[i].v.cluster.z);
        else if (c->attrs[i].id == 6) /* PROGRAMMATIC_STREAM_SERIALIZATION: an int value */
            snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), "%spdl=%d", i ? ";" : "",
                     c->attrs[i].v.pdl);
        else
            snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), "%sid%d", i ? ";" : "", c->attrs[i].id);
    }
    const unsigned char *pb = NULL;
    size_t size = 0;
    for (int i = 0; extra && extra[i]; i += 2) {
        if ((uintptr_t)extra[i] == 1) pb = extra[i + 1];
        else if ((uintptr_t)extra[i] == 2) size = *(size_t *)extra[i + 1];
    }
    char *hex = calloc(2 * size + 1, 1);
    for (size_t i = 0; i < size && pb; i++) sprintf(hex + 2 * i, "%02x", pb[i]);
    logf_("cuLaunchKernelEx fn=%s grid=%u,%u,%u block=%u,%u,%u smem=%u stream=%p attrs=[%s] kernel_params=%s "
          "param_bytes=%zu params=%s",
          name, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->smem, c->stream, attrs,
          kernel_params ? "set" : "null", size, hex);
    free(hex);
    long fail = envl("CUDA_STUB_LAUNCH_ERROR", 0);
    if (fail) return (CUresult)fail;
    if (!pb) return INVALID_VALUE;
    effects(name, pb, size, c);
    clock_ms += 1.0;
    return OK;
}
CUresult cuStreamQuery(CUstream s) {
    clock_ms += 100;
    if (envl("CUDA_STUB_HANG", 0)) return 600; /* CUDA_ERROR_NOT_READY: the kernel never ends */
    logf_("cuStreamQuery stream=%p", s);
    return OK;
}

/* ---- events -------------------------------------------------------------------------------- */
struct event { double t; int recorded; };
CUresult cuEventCreate(CUevent *e, unsigned flags) {
    clock_ms += 100;
    *e = calloc(1, sizeof(struct event));
    logf_("cuEventCreate flags=%u -> %p", flags, *e);
    return OK;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    ((struct event *)e)->t = clock_ms;
    ((struct event *)e)->recorded = 1;
    logf_("cuEventRecord event=%p stream=%p", e, s);
    return OK;
}
CUresult cuEventSynchronize(CUevent e) {
    clock_ms += 100;
    logf_("cuEventSynchronize event=%p", e);
    return ((struct event *)e)->recorded ? OK : INVALID_HANDLE;
}
static CUresult elapsed(const char *which, float *ms, CUevent a, CUevent b) {
    struct event *x = a, *y = b;
    if (!x->recorded || !y->recorded) return INVALID_HANDLE;
    *ms = (float)(y->t - x->t);
    logf_("%s start=%p end=%p -> %.6f", which, a, b, *ms);
    return OK;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { return elapsed("cuEventElapsedTime", ms, a, b); }
#ifndef STUB_NO_ELAPSED_V2
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return elapsed("cuEventElapsedTime_v2", ms, a, b); }
#endif
CUresult cuEventDestroy_v2(CUevent e) {
    logf_("cuEventDestroy_v2 event=%p", e);
    free(e);
    return OK;
}
