/*
 * Two calls into glibc's malloc for the server: a fixed mmap threshold, and
 * malloc_trim after a shard's burst (free pages inside the arenas go back to
 * the system; glibc only gives back the top of an arena by itself).
 *
 * The threshold:
 *
 * glibc raises its mmap threshold each time a chunk it had mmapped is freed
 * (up to 32 MB), after which allocations of up to that size come from
 * arenas that rarely give memory back. The server frees large buffers now
 * and then (a session file, a long read's answer, zlib's state), so after a
 * while every history block and output read came from arenas: a pane
 * holding 10 000 rows cost 4.2 MB of RSS instead of 3.0 (ARCHITECTURE.md,
 * "Memory"). Setting the threshold once turns that adjustment off.
 */
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value set_mmap_threshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int64_t bytes = 0;
  int done = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc == 1 &&
      napi_get_value_int64(env, argv[0], &bytes) == napi_ok && bytes > 0 && bytes <= (1 << 25)) {
#if defined(__GLIBC__)
    done = mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1;
#endif
  }
  napi_value result;
  napi_get_boolean(env, done, &result);
  return result;
}

static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  int done = 0;
#if defined(__GLIBC__)
  malloc_trim(0);
  done = 1;
#endif
  napi_value result;
  napi_get_boolean(env, done, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value trim_fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, trim, NULL, &trim_fn);
  napi_set_named_property(env, exports, "trim", trim_fn);
  napi_value fn;
  napi_create_function(env, "setMmapThreshold", NAPI_AUTO_LENGTH, set_mmap_threshold, NULL, &fn);
  napi_set_named_property(env, exports, "setMmapThreshold", fn);
  return exports;
}
