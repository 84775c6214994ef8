'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { SignedIn } from './session/signed-in';

const LINKS = [
  { href: '/races', label: 'Races' },
  { href: '/isolation', label: 'Isolation settings' },
  { href: '/audit', label: 'Audit' },
  { href: '/history', label: 'History' },
  { href: '/playground', label: 'Playground' },
  { href: '/store', label: 'Object store' },
  { href: '/scaling', label: 'Scaling' },
];

export function Nav() {
  const path = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      <Link href="/races" className="brand">
        racelab
      </Link>
      <ul>
        {LINKS.map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={path.startsWith(l.href) ? 'page' : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
      <p className="nav-note">Two writers, one table: who wins, what the loser sees, what is lost.</p>
      <SignedIn />
    </nav>
  );
}
