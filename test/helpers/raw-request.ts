import { connect } from 'node:net';

/**
 * Sends bytes as they are to 127.0.0.1:`port` and returns the whole answer: fetch would fix the Host header, refuse
 * TRACE and never send a header twice.
 */
export function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Written, not ended: a client that half-closes before its answer has its request aborted by Node's HTTP server
    // when the answer is not sent at once (reads now run in worker threads), which no browser does. Every request
    // here asks `Connection: close`, so the server closes once it has answered.
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
