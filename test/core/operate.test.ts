import { Observable, of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createOperatorSubscriber, operate } from '../../src/core/operate.js';

describe('operate', () => {
  it('sends what init throws to error instead of throwing from subscribe', () => {
    const broken = operate<number, number>(() => {
      throw new Error('setup failed');
    });
    const errors: unknown[] = [];
    of(1)
      .pipe(broken)
      .subscribe({ error: (e) => errors.push((e as Error).message) });
    expect(errors).toEqual(['setup failed']);
  });

  it('runs the teardown and the finaliser once however the subscription ends', () => {
    let teardowns = 0;
    let finals = 0;
    const counted = operate<number, number>((source, subscriber) => {
      source.subscribe(
        createOperatorSubscriber(subscriber, undefined, undefined, undefined, () => (finals += 1)),
      );
      return () => {
        teardowns += 1;
      };
    });
    const subject = new Subject<number>();
    const subscription = subject.pipe(counted).subscribe();
    subject.complete();
    subscription.unsubscribe();
    subscription.unsubscribe();
    expect(teardowns).toBe(1);
    expect(finals).toBe(1);
  });

  it('routes errors thrown by handlers to the destination and stops the source', () => {
    let unsubscribed = false;
    const source = new Observable<number>((subscriber) => {
      subscriber.next(1);
      subscriber.next(2);
      return () => {
        unsubscribed = true;
      };
    });
    const seen: unknown[] = [];
    source
      .pipe(
        operate<number, number>((input, subscriber) => {
          input.subscribe(
            createOperatorSubscriber(subscriber, (n) => {
              if (n === 2) throw new Error('bad value');
              subscriber.next(n);
            }),
          );
        }),
      )
      .subscribe({ next: (n) => seen.push(n), error: (e) => seen.push((e as Error).message) });
    expect(seen).toEqual([1, 'bad value']);
    expect(unsubscribed).toBe(true);
  });

  it('forwards by default when no handler is given', () => {
    const seen: unknown[] = [];
    of(1, 2)
      .pipe(
        operate<number, number>(
          (input, subscriber) => void input.subscribe(createOperatorSubscriber(subscriber)),
        ),
      )
      .subscribe({ next: (n) => seen.push(n), complete: () => seen.push('done') });
    expect(seen).toEqual([1, 2, 'done']);
  });
});
