// Component tests: Testing Library's DOM matchers (toBeInTheDocument, toHaveTextContent …), and
// each test's components unmounted after it.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/svelte';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
