import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import { Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type StatusTone, toneOf } from './model-format';

const looks: Record<StatusTone, { Icon: typeof CheckCircleIcon; color: string }> = {
  success: { Icon: CheckCircleIcon, color: 'success.main' },
  warning: { Icon: HourglassTopIcon, color: 'warning.main' },
  error: { Icon: PauseCircleIcon, color: 'error.main' },
  neutral: { Icon: HelpOutlineIcon, color: 'text.disabled' },
};

/** A model's status as an icon and a word in its colour (spec section 4): green, amber, red, or grey for anything else. */
export function ModelStatus({ status }: { status: string }) {
  const translate = useTranslate();
  const tone = toneOf(status);
  const { Icon, color } = looks[tone];
  const label =
    tone === 'neutral' ? translate('resources.models.status.unknown', { status }) : translate(`resources.models.status.${status}`);
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, color }} data-status={status}>
      <Icon fontSize="small" />
      <Typography variant="body2" sx={{ color: 'inherit', fontWeight: 500 }}>
        {label}
      </Typography>
    </Stack>
  );
}
