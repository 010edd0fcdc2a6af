import { connect } from 'node:net';

/**
 * Sends bytes as they are to 127.0.0.1:`port` and returns the whole answer: fetch would fix the Host header, refuse
 * TRACE and never send a header twice.
 */
export function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
