#!/usr/bin/env node
/**
 * postinstall: builds the native modules from source wherever npm put them
 * (this package's own node_modules, a parent project's, or a global prefix):
 * node-pty with the two changes below, re2, and our own small addons.
 * Plain JavaScript: it runs before the TypeScript is built. No shell is
 * involved, and nothing is downloaded: re2's own install script (blocked in
 * package.json's allowScripts) would first try a prebuilt binary from GitHub.
 *
 * Why from source: the prebuilt linux binary lacks close_range, so PTY
 * masters would leak into pane processes (ARCHITECTURE.md, "PTYs").
 *
 * The fix: node-pty reports a child's exit through a thread-safe function
 * whose JavaScript call throws a C++ exception when it lands while the
 * worker thread that owns it is being torn down (a shard that crashed, ran
 * out of memory or was terminated: its PTY masters close, the shells exit on
 * the hangup, and their exits arrive mid-teardown). Nothing catches it, so
 * std::terminate aborts the whole server. Measured: a shard that exited or
 * hung aborted the process every time, one that threw whenever a shell was
 * among its panes (ARCHITECTURE.md, "Faults and hostile input"). Catching
 * that exception was not enough: building it can fail in a dying thread,
 * which node-addon-api makes a fatal error (test/pty-spawn-threads.test.ts
 * met it in one run in three, ending threads as their programs were killed).
 * The fix makes the exit callback's calls through node-api's C functions,
 * whose failures are statuses: with the thread gone there is nobody left to
 * tell.
 *
 * A second change starts pane processes with posix_spawn instead of forkpty
 * on Linux (glibc 2.34 or later). fork copies the page tables of the whole
 * server, so each spawn took 10 ms in a fresh server and 20–30 ms once it
 * held a few hundred MB, while the shard's thread waited; glibc's
 * posix_spawn shares the memory until exec (CLONE_VM | CLONE_VFORK). The
 * child still gets a session of its own with the pane's terminal as its
 * controlling terminal (opened after setsid, without O_NOCTTY), every signal
 * at its default and none blocked, the pane's directory, and no descriptor
 * but 0–2. The program is looked up in the pane's own PATH, as execvp did.
 * Both ends of the PTY are close-on-exec from the moment they are opened, so
 * nothing the server starts on another thread meanwhile inherits them.
 *
 * A third: node-pty names a PTY's terminal with ptsname(3), whose answer lies
 * in one buffer for the whole process. Two shards spawning at once could
 * each read the other's name, so one pane's program opened another pane's
 * terminal as its own: it read that pane's keys and wrote on its screen,
 * while its own terminal, never opened, read EIO and closed. Seen in about
 * one creation of 300 panes in five. ptsname_r(3) names it into a buffer of
 * the caller's own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const nodePty = dirname(require.resolve('node-pty/package.json'));
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');

const EXIT_CALLBACK = `      cb.Call({Napi::Number::New(env, exit_event->exit_code),
               Napi::Number::New(env, exit_event->signal_code)});
      delete exit_event;`;
const MARK = '/* herdr: exit during teardown */';
const GUARDED_EXIT_CALLBACK = `      { ${MARK}
        // node-api's C calls, whose failure is only a status: node-addon-api's C++ wrappers turn a
        // failed call into an exception, and building that exception in an environment being torn
        // down fails too, which it makes a fatal error.
        napi_value args[2];
        napi_value receiver;
        if (napi_create_int32(env, exit_event->exit_code, &args[0]) == napi_ok &&
            napi_create_int32(env, exit_event->signal_code, &args[1]) == napi_ok &&
            napi_get_undefined(env, &receiver) == napi_ok) {
          napi_call_function(env, receiver, cb, 2, args, nullptr);
        }
      }
      delete exit_event;`;

/**
 * One marked edit of node-pty's pty.cc, made once: skipped where `mark` is already in the
 * source, refused where an `anchor` it edits at is missing (another node-pty than the pinned one).
 */
function editPtySource(mark, anchors, change, edit) {
  const source = join(nodePty, 'src', 'unix', 'pty.cc');
  const text = readFileSync(source, 'utf8');
  if (text.includes(mark)) return;
  if (!anchors.every((anchor) => text.includes(anchor))) {
    throw new Error(`node-pty's ${source} is not the version the ${change} change was written for; review scripts/build-native.js`);
  }
  writeFileSync(source, edit(text));
}

function guardExitCallback() {
  editPtySource(MARK, [EXIT_CALLBACK], 'exit callback', (text) => text.replace(EXIT_CALLBACK, GUARDED_EXIT_CALLBACK));
}

const SPAWN_MARK = '/* herdr: posix_spawn */';
const FORK_START = `  sigset_t newmask, oldmask;
  struct sigaction sig_action;`;
const FORK_END = `    default:
      if (pty_nonblock(master) == -1) {
        throw Napi::Error::New(napiEnv, "Could not set master fd to nonblocking.");
      }
  }
#endif`;
const PTY_FORK = 'Napi::Value PtyFork(const Napi::CallbackInfo& info) {';
const SPAWN_FUNCTION = `#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#include <spawn.h>
#define HERDR_POSIX_SPAWN 1
${SPAWN_MARK}
/* The program as execvp would find it: a name with a slash as it is, else the first executable file in PATH (relative entries from cwd). */
static std::string herdr_find_program(const std::string& file, char** env, const std::string& cwd) {
  if (file.find('/') != std::string::npos) return file;
  std::string path = "/bin:/usr/bin";
  for (char** entry = env; *entry; entry++) {
    if (strncmp(*entry, "PATH=", 5) == 0) { path = *entry + 5; break; }
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";
    if (dir[0] != '/' && !cwd.empty()) dir = cwd + "/" + dir;
    std::string candidate = dir + "/" + file;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return file;
}

/* Starts argv in a new session on a new PTY; returns an error message, or "" with *master and *pid set. */
static std::string herdr_pty_spawn(char** argv, char** env, const std::string& cwd, struct termios* term, struct winsize* winp, int* master, pid_t* pid) {
  /* Both ends close-on-exec from their first moment: a process the server starts meanwhile on another thread inherits neither. */
  *master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (*master == -1) return std::string("posix_openpt(3) failed: ") + strerror(errno);
  std::string slave_path = herdr_ptsname(*master);
  int slave = -1;
  if (grantpt(*master) == -1 || unlockpt(*master) == -1 || slave_path.empty() ||
      (slave = open(slave_path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1) {
    std::string message = std::string("cannot open a terminal: ") + strerror(errno);
    close(*master);
    *master = -1;
    return message;
  }
  if (term) tcsetattr(slave, TCSANOW, term);
  if (winp) ioctl(slave, TIOCSWINSZ, winp);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  /* After setsid, opening the terminal makes it the session's controlling terminal. */
  posix_spawn_file_actions_addopen(&actions, 0, slave_path.c_str(), O_RDWR, 0);
  posix_spawn_file_actions_adddup2(&actions, 0, 1);
  posix_spawn_file_actions_adddup2(&actions, 0, 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string program = herdr_find_program(argv[0], env, cwd);
  int error = posix_spawn(pid, program.c_str(), &actions, &attributes, argv, env);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(slave);
  if (error != 0) {
    close(*master);
    *master = -1;
    return std::string("cannot start ") + argv[0] + ": " + strerror(error);
  }
  if (pty_nonblock(*master) == -1) return "Could not set master fd to nonblocking.";
  return "";
}
#endif

`;
const SPAWN_CALL = `  bool herdr_spawned = false; ${SPAWN_MARK}
#if defined(HERDR_POSIX_SPAWN)
  if (uid == -1 && gid == -1) {
    std::string spawn_error = herdr_pty_spawn(argv, env, cwd_, term, &winp, &master, &pid);
    if (!spawn_error.empty()) throw Napi::Error::New(napiEnv, spawn_error);
    herdr_spawned = true;
  }
#endif
  if (!herdr_spawned) {
${FORK_START}`;

function spawnWithoutFork() {
  editPtySource(SPAWN_MARK, [FORK_START, FORK_END, PTY_FORK], 'posix_spawn', (text) =>
    text
      .replace(PTY_FORK, `${SPAWN_FUNCTION}${PTY_FORK}`)
      .replace(FORK_START, SPAWN_CALL)
      .replace(FORK_END, FORK_END.replace(/\n#endif$/, '\n  }\n#endif')),
  );
}

const PTSNAME_MARK = '/* herdr: ptsname_r */';
const INCLUDE_ANCHOR = '#include <thread>\n';
const PTSNAME_FUNCTION = `${INCLUDE_ANCHOR}${PTSNAME_MARK}
/* The name of master's terminal, read into a buffer of this call's own (ptsname(3) shares one between threads). */
static std::string herdr_ptsname(int master) {
#if defined(__linux__)
  char name[128];
  return ptsname_r(master, name, sizeof(name)) == 0 ? std::string(name) : std::string();
#else
  const char* name = ptsname(master);
  return name ? std::string(name) : std::string();
#endif
}
`;

function threadSafeTerminalNames() {
  editPtySource(PTSNAME_MARK, [INCLUDE_ANCHOR], 'ptsname_r', (text) =>
    text
      .replace(INCLUDE_ANCHOR, PTSNAME_FUNCTION)
      .replaceAll('ptsname(master))', 'herdr_ptsname(master).c_str())')
      .replaceAll('std::string slave_path = ptsname(*master);', 'std::string slave_path = herdr_ptsname(*master);'),
  );
}

if (process.platform !== 'win32') {
  guardExitCallback();
  spawnWithoutFork();
  threadSafeTerminalNames();
}
execFileSync(process.execPath, [nodeGyp, 'rebuild', `--directory=${nodePty}`, '--silent'], { stdio: 'inherit' });

// re2 as its own install script builds it when no prebuilt binary is found, without looking for one;
// a project that lets that script run (herdr as its dependency) already has it.
const re2 = dirname(require.resolve('re2/package.json'));
if (!existsSync(join(re2, 'build', 'Release', 're2.node'))) {
  execFileSync(process.execPath, [nodeGyp, 'rebuild', '-j', 'max', `--directory=${re2}`, '--silent'], { stdio: 'inherit' });
}

// Our own small addons. Optional: the server runs without them.
// native/malloc-tuning: the server fixes glibc's mmap threshold.
// native/tty-modes: whether a pane's program reads keys yet (its terminal out of canonical mode).
// native/peer-cred: which process is at the other end of a connection (pane.current).
if (process.platform === 'linux') {
  const addons = [
    ['malloc-tuning', 'the server runs without it (more memory per pane after a while)'],
    ['tty-modes', 'agents are taken as ready by their screens alone (a prompt typed while one starts may be left in its input)'],
    ['peer-cred', 'pane.current knows the caller\'s pane only from caller_pane_id'],
  ];
  for (const [name, without] of addons) {
    const directory = join(dirname(fileURLToPath(import.meta.url)), '..', 'native', name);
    try {
      execFileSync(process.execPath, [nodeGyp, 'rebuild', `--directory=${directory}`, '--silent'], { stdio: 'inherit' });
    } catch {
      console.warn(`herdr: native/${name} did not build; ${without}`);
    }
  }
}
