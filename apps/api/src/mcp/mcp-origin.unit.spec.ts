import { originAllowed } from './mcp-origin';

describe('the Origin a browser sends to /mcp', () => {
  const cors = ['https://app.example.com'];

  it('passes when absent (not a browser)', () => {
    expect(originAllowed(undefined, 3000, [])).toBe(true);
  });

  it.each(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000', 'https://app.example.com'])('allows %s on port 3000', (origin) => {
    expect(originAllowed(origin, 3000, cors)).toBe(true);
  });

  it.each([
    'http://evil.example', // a rebinding page
    'http://127.0.0.1:8080', // another local service's pages
    'https://127.0.0.1:3000', // not what the gateway serves
    'http://localhost', // port 80
    'https://app.example.com:8443',
    'null',
    'http://127.0.0.1:3000/path',
    '',
  ])('refuses %j', (origin) => {
    expect(originAllowed(origin, 3000, cors)).toBe(false);
  });

  it('allows port 80 only when the gateway listens there', () => {
    expect(originAllowed('http://localhost', 80, [])).toBe(true);
  });
});
