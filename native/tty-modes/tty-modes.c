/*
 * The line discipline of a pane's terminal, read through its PTY master: on Linux
 * tcgetattr on the master answers the slave's settings. A program that reads keys
 * (an agent CLI's input box, a shell's line editor) turns canonical mode off; until it
 * does, what is typed is edited by the kernel a line at a time and a CR becomes a LF
 * (ICRNL), so a prompt typed into an agent that is still starting is not submitted
 * but left as a newline in its input (ARCHITECTURE.md, "Ready means ready").
 *
 * lineMode(fd): bit 1 canonical (ICANON), bit 2 echo (ECHO), bit 4 CR→LF (ICRNL);
 * -1 when the fd is not a terminal or is closed.
 */
#include <node_api.h>
#include <termios.h>

static napi_value line_mode(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  int32_t mode = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc == 1 &&
      napi_get_value_int32(env, argv[0], &fd) == napi_ok && fd >= 0) {
    struct termios settings;
    if (tcgetattr(fd, &settings) == 0) {
      mode = ((settings.c_lflag & ICANON) ? 1 : 0) | ((settings.c_lflag & ECHO) ? 2 : 0) | ((settings.c_iflag & ICRNL) ? 4 : 0);
    }
  }
  napi_value result;
  napi_create_int32(env, mode, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "lineMode", NAPI_AUTO_LENGTH, line_mode, NULL, &fn);
  napi_set_named_property(env, exports, "lineMode", fn);
  return exports;
}
