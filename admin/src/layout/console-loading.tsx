import { Box } from '@mui/material';
import { Loading } from 'react-admin';

/**
 * The spinner shown while the session is checked and the staff flag is read (spec section 2).
 * It waits 300 ms before showing, so a fast answer does not flash it.
 */
export function ConsoleLoading() {
  return (
    <Box sx={{ height: '100vh' }}>
      <Loading loadingPrimary="meshwork.auth.checking_session" loadingSecondary="ra.message.loading" timeout={300} />
    </Box>
  );
}
