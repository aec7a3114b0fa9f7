import { List, ListItem, ListItemText, ListSubheader, Paper, Typography } from '@mui/material';
import { useId } from 'react';

/** Application access roles, lowest to highest (spec 1 §9). */
const ROLE_ORDER = ['observer', 'operator', 'developer', 'administrator'];
const rank = (role: string) => ROLE_ORDER.indexOf(role);

interface Props {
  title: string;
  empty: string;
  items: { key: string | number; name: string; role: string }[];
  roleLabel: (role: string) => string;
}

/** Spec 1 §9: summary lists are capped at 300 px and scroll. */
const MAX_HEIGHT = 300;

/** A titled card listing applications grouped by access role, highest role first. */
export function AccessByRoleCard({ title, empty, items, roleLabel }: Props) {
  const titleId = useId();
  const roles = [...new Set(items.map((i) => i.role))].sort((a, b) => rank(b) - rank(a));
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, flex: 1, minWidth: 0 }}>
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {items.length === 0 ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <List dense aria-labelledby={titleId} sx={{ maxHeight: MAX_HEIGHT, overflowY: 'auto' }}>
          {roles.map((role) => {
            const groupId = `${titleId}-${role}`;
            return (
              <li key={role}>
                <List dense disablePadding aria-labelledby={groupId}>
                  <ListSubheader id={groupId} disableSticky>
                    {roleLabel(role)}
                  </ListSubheader>
                  {items
                    .filter((i) => i.role === role)
                    .map((i) => (
                      <ListItem key={i.key} divider>
                        <ListItemText primary={i.name} />
                      </ListItem>
                    ))}
                </List>
              </li>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
