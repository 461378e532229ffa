/**
 * `herdr dial-stdio [--socket PATH]`: this process's stdin and stdout joined
 * to the local server's socket, byte for byte (newline-delimited JSON both
 * ways, kept-alive connections and subscriptions included), until either
 * side closes. It is the far end of an SSH connection (`ssh host herdr
 * dial-stdio`), as `docker system dial-stdio` is for Docker: the remote
 * server is reached with SSH's authentication and encryption, and nothing of
 * ours listens on a network port.
 */
import { connect } from 'node:net';
import type { Command } from 'commander';
import { resolveSocketPath } from '../../protocol/socket-path.js';
import { connectError } from '../../client/errors.js';
import { exitWith } from '../failure.js';
import type { SocketOption } from '../output.js';

export function addDialStdioCommand(program: Command): void {
  program
    .command('dial-stdio')
    .description('join stdin and stdout to the server\'s socket (the remote end of `ssh host herdr dial-stdio`)')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) => {
      const socketPath = flags.socket ?? resolveSocketPath();
      const socket = connect(socketPath);
      socket.once('error', (error: NodeJS.ErrnoException) => exitWith(connectError(socketPath, error)));
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        // Requests go on after stdin ends (a half-close): their answers still come back.
        process.stdin.pipe(socket);
        socket.pipe(process.stdout);
        socket.on('error', () => process.exit(0));
        // The server closed: what it wrote is flushed to stdout, then we are done.
        process.stdout.on('finish', () => process.exit(0));
        process.stdout.on('error', () => process.exit(0));
      });
    });
}
