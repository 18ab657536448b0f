import { readFileSync } from 'node:fs';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Link } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { Field, SelectField } from './Field';
import { Actions, Card, EmptyState, FormRow, List, ListRow, Muted, Page, PageHeader, ValueRow } from './Page';

describe('PageHeader', () => {
  it('is the page’s one h1, with the way back before it, an action at its end and a lead under it', () => {
    render(
      <Page data-testid="page">
        <PageHeader title="Deposit" lead="Choose an amount." back={<button type="button">Back</button>} action={<button type="button">Help</button>} />
      </Page>,
    );
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(h1.textContent).toBe('Deposit');
    expect(screen.getAllByRole('heading')).toHaveLength(1);
    const header = h1.closest('div')!.parentElement!;
    const order = [...header.querySelectorAll('button, h1, p')].map((el) => el.textContent);
    expect(order).toEqual(['Back', 'Deposit', 'Help', 'Choose an amount.']);
    expect(screen.getByTestId('page').contains(h1)).toBe(true);
  });

  it('shows only the title when nothing else is given (no empty lead, no back button)', () => {
    const { container } = render(<PageHeader title="Balance" />);
    expect(container.querySelectorAll('p, button')).toHaveLength(0);
    expect(container.textContent).toBe('Balance');
  });
});

describe('Card', () => {
  it('is a region named by its title, with the lead under the title', () => {
    render(
      <Card title="History" lead="The last 30 days.">
        <p>row</p>
      </Card>,
    );
    const region = screen.getByRole('region', { name: 'History' });
    expect(within(region).getByRole('heading', { level: 2 }).textContent).toBe('History');
    expect(region.textContent).toBe('HistoryThe last 30 days.row');
  });

  it('keeps a given title id, and an untitled card names nothing', () => {
    render(
      <>
        <Card title="Limits" titleId="rg-limits" />
        <Card data-testid="plain">x</Card>
      </>,
    );
    expect(screen.getByRole('region', { name: 'Limits' }).getAttribute('aria-labelledby')).toBe('rg-limits');
    expect(document.getElementById('rg-limits')?.textContent).toBe('Limits');
    expect(screen.getByTestId('plain').hasAttribute('aria-labelledby')).toBe(false);
  });

  it('can be the form itself: its submit reaches the caller and its attributes the element', () => {
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <Card as="form" onSubmit={onSubmit} noValidate data-testid="top-up-form">
        <button type="submit">Pay</button>
      </Card>,
    );
    const form = screen.getByTestId('top-up-form');
    expect(form.tagName).toBe('FORM');
    expect(form.hasAttribute('novalidate')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

describe('List and its rows', () => {
  it('makes the whole row the link it is given, named by its text alone (icon and chevron hidden)', () => {
    render(
      <MemoryRouter>
        <nav aria-label="Profile">
          <List>
            <ListRow icon={<svg />} action={<Link to="/profile/balance" className="mine" />} chevron>
              Balance
            </ListRow>
          </List>
        </nav>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Balance' });
    expect(link.getAttribute('href')).toBe('/profile/balance');
    expect(link.className).toContain('mine');
    expect(link.closest('li')?.parentElement?.tagName).toBe('UL');
    // The icon and the chevron are inside the link, out of its name.
    const hidden = [...link.querySelectorAll('[aria-hidden="true"]')];
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('makes a button row act as one, with the danger tone on its item', () => {
    const onClick = vi.fn();
    render(
      <List>
        <ListRow action={<button type="button" onClick={onClick} />} tone="danger">
          Sign out
        </ListRow>
      </List>,
    );
    const button = screen.getByRole('button', { name: 'Sign out' });
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button.closest('li')?.className).toMatch(/danger/);
  });

  it('shows a plain row’s text and what comes at its end, passing its attributes to the item', () => {
    render(
      <List data-testid="cashiers">
        <ListRow trailing={<span>40 TND</span>} data-testid="row" data-status="PAID">
          Demo cashier
        </ListRow>
      </List>,
    );
    const row = screen.getByTestId('row');
    expect(row.tagName).toBe('LI');
    expect(row.getAttribute('data-status')).toBe('PAID');
    expect(row.textContent).toBe('Demo cashier40 TND');
    expect(within(screen.getByTestId('cashiers')).queryByRole('link')).toBeNull();
  });

  it('pairs each label with its value in a description list', () => {
    render(
      <List as="dl" data-testid="facts">
        <ValueRow label="Real balance" valueTestId="real">
          500 TND
        </ValueRow>
        <ValueRow label="Bonus">0 TND</ValueRow>
      </List>,
    );
    expect(screen.getByTestId('facts').tagName).toBe('DL');
    expect(screen.getAllByRole('term').map((e) => e.textContent)).toEqual(['Real balance', 'Bonus']);
    expect(screen.getAllByRole('definition').map((e) => e.textContent)).toEqual(['500 TND', '0 TND']);
    expect(screen.getByTestId('real').tagName).toBe('DD');
  });
});

describe('FormRow', () => {
  it('labels any control, and ties its hint and its refusal to it', () => {
    render(
      <FormRow label="Cashier" name="cashier_id" hint="Any cashier pays." error="Choose a cashier.">
        {(c) => (
          <select id={c.id} aria-describedby={c.describedBy} aria-invalid={c.invalid}>
            <option>Any</option>
          </select>
        )}
      </FormRow>,
    );
    const select = screen.getByLabelText('Cashier');
    expect(select.tagName).toBe('SELECT');
    const described = (select.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['Any cashier pays.', 'Choose a cashier.']);
    expect(screen.getByRole('alert').textContent).toBe('Choose a cashier.');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.closest('[data-field]')?.getAttribute('data-field')).toBe('cashier_id');
  });

  it('uses the id it is given, and describes nothing when there is nothing to say', () => {
    render(<FormRow label="Login" id="login">{(c) => <input id={c.id} aria-describedby={c.describedBy} aria-invalid={c.invalid} />}</FormRow>);
    const input = screen.getByLabelText('Login');
    expect(input.id).toBe('login');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.getAttribute('aria-invalid')).toBe('false');
    // Marked as a field row even without a wire name: a card drops its margin by it.
    expect(input.closest('[data-field]')?.getAttribute('data-field')).toBe('');
  });

  it('is what Field and SelectField are built on (same label, hint and refusal wiring)', () => {
    render(
      <>
        <Field label="Amount" name="amount" value="" onChange={() => {}} hint="From 10 TND" error="Too small." aria-describedby="extra" />
        <SelectField label="Interval" name="minutes" value="15" onChange={() => {}} options={[{ value: '15', label: 'Every 15 min' }]} hint="Off by default" data-testid="sel" disabled />
      </>,
    );
    const amount = screen.getByLabelText('Amount');
    expect((amount.getAttribute('aria-describedby') ?? '').split(' ')[0]).toBe('extra');
    expect(amount.getAttribute('aria-describedby')?.split(' ')).toHaveLength(3);
    const select = screen.getByLabelText('Interval') as HTMLSelectElement;
    expect(select).toBe(screen.getByTestId('sel'));
    expect(select.disabled).toBe(true);
    expect(document.getElementById(select.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Off by default');
  });
});

describe('EmptyState', () => {
  it('shows a decorative badge, the title at the level asked, the text and the actions, announced when live', () => {
    render(
      <EmptyState icon="✓" tone="success" title="Payment received" headingLevel={1} live data-testid="done" actions={<button type="button">Play</button>}>
        <p>50 TND added.</p>
      </EmptyState>,
    );
    const box = screen.getByTestId('done');
    expect(box.getAttribute('aria-live')).toBe('polite');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Payment received');
    const badge = box.querySelector('[aria-hidden="true"]')!;
    expect(badge.textContent).toBe('✓');
    expect(badge.className).toMatch(/tone_success/);
    expect(within(box).getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(box.textContent).toBe('✓Payment received50 TND added.Play');
  });

  it('is only the words when that is all there is (no badge, no heading, not live)', () => {
    render(
      <EmptyState data-testid="empty">
        <p>No withdrawals yet.</p>
      </EmptyState>,
    );
    const box = screen.getByTestId('empty');
    expect(box.textContent).toBe('No withdrawals yet.');
    expect(within(box).queryByRole('heading')).toBeNull();
    expect(box.hasAttribute('aria-live')).toBe(false);
    expect(box.querySelector('[aria-hidden]')).toBeNull();
  });
});

describe('Actions and Muted', () => {
  it('hold what they are given, in the element asked', () => {
    render(
      <>
        <Actions data-testid="actions">
          <button type="button">Yes</button>
          <button type="button">No</button>
        </Actions>
        <Muted as="span" data-testid="muted">
          Pending
        </Muted>
      </>,
    );
    expect(within(screen.getByTestId('actions')).getAllByRole('button')).toHaveLength(2);
    expect(screen.getByTestId('muted').tagName).toBe('SPAN');
  });
});

describe('the primitives’ styles', () => {
  // The path in a variable: Vite would turn a literal `new URL('./x.css', import.meta.url)` into an asset URL.
  const file = './Page.module.css';
  const css = readFileSync(new URL(file, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  it('use logical properties only, so right to left needs no override', () => {
    const physical = css.match(/(^|[\s;{])(margin|padding|border)-(left|right|top|bottom)(-\w+)?\s*:|(^|[\s;{])(left|right|top|bottom)\s*:|text-align:\s*(left|right)|float:\s*(left|right)/gm);
    expect(physical).toBeNull();
  });
  it('mirror the chevron right to left (the one direction-dependent glyph)', () => {
    expect(css).toMatch(/:global\(\[dir='rtl'\]\) \.chevron \{\s*transform: scaleX\(-1\);/);
  });
});
