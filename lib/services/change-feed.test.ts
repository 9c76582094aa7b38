import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeFeed, type ChangeNotice, type OtherProcesses } from './change-feed';

/** The change feed among several processes: what changes here reaches the pages open on the others, and theirs reach pages here, once. */

function otherProcesses() {
  const sent: ChangeNotice[] = [];
  let heard: (notice: ChangeNotice) => void = () => undefined;
  const others: OtherProcesses = {
    send: (notice) => sent.push(notice),
    listen: (handler) => {
      heard = handler;
      return () => undefined;
    },
  };
  return { others, sent, fromAnother: (notice: ChangeNotice) => heard(notice) };
}

test('a change here is heard by the pages here and sent to the other processes', () => {
  const { others, sent } = otherProcesses();
  const feed = new ChangeFeed(others);
  const pages: ChangeNotice[] = [];
  feed.subscribe((n) => pages.push(n));
  feed.publish({ type: 'thread', id: 't1', title: 'Closures' });
  assert.deepEqual(pages, [{ type: 'thread', id: 't1', title: 'Closures' }]);
  assert.deepEqual(sent, [{ type: 'thread', id: 't1', title: 'Closures' }]);
});

test('a change in another process is heard by the pages here and not sent back', () => {
  const { others, sent, fromAnother } = otherProcesses();
  const feed = new ChangeFeed(others);
  const pages: ChangeNotice[] = [];
  feed.subscribe((n) => pages.push(n));
  fromAnother({ type: 'memories' });
  assert.deepEqual(pages, [{ type: 'memories' }]);
  assert.deepEqual(sent, []);
});

test('alone (SQLite), the feed is this process’s only', () => {
  const feed = new ChangeFeed();
  const pages: ChangeNotice[] = [];
  feed.subscribe((n) => pages.push(n));
  feed.publish({ type: 'library' });
  assert.deepEqual(pages, [{ type: 'library' }]);
});
