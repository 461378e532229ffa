/*
 * Who is at the other end of a unix socket connection: SO_PEERCRED, the process id the
 * kernel recorded when the client connected (Linux). `pane.current` finds the caller's
 * pane from it (docs/protocol.md §5.6); Node has no API for it.
 *
 * peerPid(fd): the peer's pid, or -1 when the fd is not a connected unix socket.
 */
#define _GNU_SOURCE
#include <node_api.h>
#include <sys/socket.h>

static napi_value peer_pid(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  int32_t pid = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc == 1 &&
      napi_get_value_int32(env, argv[0], &fd) == napi_ok && fd >= 0) {
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 && size == sizeof credentials && credentials.pid > 0) {
      pid = credentials.pid;
    }
  }
  napi_value result;
  napi_create_int32(env, pid, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "peerPid", NAPI_AUTO_LENGTH, peer_pid, NULL, &fn);
  napi_set_named_property(env, exports, "peerPid", fn);
  return exports;
}
