/** The shared value schemas (src/shared/schemas.ts): one Month and one Uuid for every surface. */
import { expect } from 'chai';
import { isUuid, Month, MONTH_PATTERN, Uuid } from '../../src/shared/schemas.js';

describe('shared schemas', () => {
  it('Month: YYYY-MM from 1970-01 to 9999-12, with one message for everything else', () => {
    for (const ok of ['1970-01', '2025-12', '9999-12']) expect(Month.parse(ok), ok).to.equal(ok);
    for (const bad of ['1969-12', '0000-01', '10000-01', '2025-13', '2025-00', '2025-1', '2025-01-01', ' 2025-01', '']) {
      const parsed = Month.safeParse(bad);
      expect(parsed.success, bad).to.equal(false);
      expect(parsed.error?.issues.map((i) => i.message), bad).to.deep.equal(['Must be a month YYYY-MM']);
      expect(MONTH_PATTERN.test(bad), bad).to.equal(false);
    }
  });

  it('Uuid: what PostgreSQL\'s uuid reads (either case, the nil id, any version and variant bits); zod\'s message otherwise', () => {
    // The last: md5(…)::uuid, as the bench generator makes ids; not RFC 9562, still a stored id.
    for (const ok of ['7b0c9a62-8e4f-4a38-9d55-1f0e6d4b2c11', '7B0C9A62-8E4F-4A38-9D55-1F0E6D4B2C11', '00000000-0000-0000-0000-000000000000', '12345678-1234-1234-1234-123456789abc']) {
      expect(Uuid.parse(ok), ok).to.equal(ok);
      expect(isUuid(ok), ok).to.equal(true);
    }
    for (const bad of ['not-a-uuid', '7b0c9a62-8e4f-4a38-9d55-1f0e6d4b2c1', '7b0c9a62-8e4f-4a38-9d55-1f0e6d4b2c11 ', '7b0c9a628e4f4a389d551f0e6d4b2c11', "1) or (1=1", '']) {
      expect(isUuid(bad), bad).to.equal(false);
      expect(Uuid.safeParse(bad).error?.issues.map((i) => i.message), bad).to.deep.equal(['Invalid UUID']);
    }
  });
});
