import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { ConfirmBulkDelete } from './confirm-bulk-delete';
import { useUserBulkActions } from './use-user-bulk-actions';

/**
 * "Bulk actions" in the list's toolbar, always visible: react-admin shows its bulk toolbar only
 * once something is selected, so this is where the spec's 'please select a user' error can
 * arise — choosing an action here with no user selected shows it.
 */
export function BulkActionsMenu() {
  const translate = useTranslate();
  const bulk = useUserBulkActions();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);

  const choose = (action: () => void) => () => {
    setAnchor(null);
    action();
  };

  return (
    <>
      <Button
        label="resources.users.actions.bulk_menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        alignIcon="right"
      >
        <ArrowDropDownIcon />
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={choose(() => bulk.setActive(true))}>
          <ListItemIcon>
            <CheckCircleIcon fontSize="small" color="success" />
          </ListItemIcon>
          <ListItemText>{translate('resources.users.actions.bulk_activate')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={choose(() => bulk.setActive(false))}>
          <ListItemIcon>
            <BlockIcon fontSize="small" color="warning" />
          </ListItemIcon>
          <ListItemText>{translate('resources.users.actions.bulk_deactivate')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={choose(() => bulk.requireSelection() && setConfirming(true))}>
          <ListItemIcon>
            <DeleteIcon fontSize="small" color="error" />
          </ListItemIcon>
          <ListItemText>{translate('resources.users.actions.bulk_delete')}</ListItemText>
        </MenuItem>
      </Menu>
      <ConfirmBulkDelete
        isOpen={confirming}
        count={bulk.selectedCount}
        loading={bulk.isPending}
        onConfirm={() => bulk.remove(() => setConfirming(false))}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
