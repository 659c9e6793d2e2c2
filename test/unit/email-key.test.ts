import { emailKey } from '../../server/db/email-key';

describe('emailKey: one key per mailbox however the address is written', () => {
  it.each([
    ['Jane@Acme.example', 'jane@acme.example'],
    ['JÖRG@MÜNCHEN.DE', 'jörg@xn--mnchen-3ya.de'],
    ['jörg@xn--mnchen-3ya.de', 'jörg@xn--mnchen-3ya.de'],
    ['STRAẞE@example.de', 'strasse@example.de'],
    ['straße@example.de', 'strasse@example.de'],
    ['  ｊａｎｅ@acme.example ', 'jane@acme.example'],
  ])('%s -> %s', (address, key) => {
    expect(emailKey(address)).toBe(key);
  });

  it('keeps different people apart', () => {
    expect(emailKey('j@acme.example')).not.toBe(emailKey('bj@acme.example.com'));
    expect(emailKey('j@acme.example')).not.toBe(emailKey('j@acme.example.com'));
  });
});
