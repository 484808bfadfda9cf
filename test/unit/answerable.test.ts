import { describeUnanswerable, unanswerable } from '../../src/stages/screen/answerable.js';
import { answerProblem } from '../../src/stages/screen/screen.js';

describe('answerability: nothing of the harvest machine in an answer', () => {
  it.each([
    [
      {
        exception_type: 'FileNotFoundError',
        exception_message:
          "[Errno 2] No such file or directory: '/tg/work/g1/tmp/pytest-of-tracegate20001/pytest-0/x/absent.json'",
      },
      'machine-path',
      '/tg/work/g1/tmp/pytest-of-tracegate20001/pytest-0/x/absent.json',
    ],
    [{ message: 'cannot open /tmp/tmpab12cd/data.txt' }, 'machine-path', '/tmp/tmpab12cd/data.txt'],
    [{ value: 'pytest-of-root' }, 'machine-path', 'pytest-of-root'],
    [{ owner: 'tracegate20001' }, 'machine-user', 'tracegate20001'],
    [{ repr: '<Foo object at 0x7f3a2b1c9d00>' }, 'address', 'at 0x7f3a2b1c9d00'],
    [
      { crashing_tests: [], safe_tests: ['<process>', 't.py::test_a'] },
      'undefined-name',
      '<process>',
    ],
    [{ ['/tg/x']: 1 }, 'machine-path', '/tg/x'],
  ])('refuses %j (%s)', (answer, rule, found) => {
    expect(unanswerable(answer)).toEqual({ rule, found });
    expect(answerProblem(answer)).toMatchObject({ rule: 'unanswerable' });
    expect(describeUnanswerable(unanswerable(answer)!)).toContain(`answerability rule ${rule}`);
  });

  it.each([
    [{ repr: '<Foo object at 0x…>' }],
    [{ path: 'src/click/utils.py', line: 12 }],
    [{ message: 'a/tmp/b is not a machine path', ratio: '1/tmp' }],
    [{ safe_tests: ['tests/test_tg.py::test_x'] }],
  ])('keeps %j', (answer) => {
    expect(unanswerable(answer)).toBeUndefined();
  });
});
