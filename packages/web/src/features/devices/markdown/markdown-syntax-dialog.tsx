import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n-summary';
import MarkdownView from './markdown-view';

/** The syntax a note renders (markdown.ts), each with what it looks like (spec 2 §2 supported-syntax dialog). */
const EXAMPLES: { label: 'heading' | 'bold' | 'italic' | 'code' | 'code_block' | 'link' | 'list' | 'numbered' | 'break'; source: string }[] = [
  { label: 'heading', source: '## Heading' },
  { label: 'bold', source: '**bold**' },
  { label: 'italic', source: '*italic*' },
  { label: 'code', source: '`code`' },
  { label: 'code_block', source: '```\ncode block\n```' },
  { label: 'link', source: '[link](https://example.com)' },
  { label: 'list', source: '- item\n- item' },
  { label: 'numbered', source: '1. first\n2. second' },
  { label: 'break', source: 'line one\nline two' },
];

export default function MarkdownSyntaxDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('devices.markdown_title')}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell>{t('devices.markdown_element')}</TableCell>
              <TableCell>{t('devices.markdown_type')}</TableCell>
              <TableCell>{t('devices.markdown_result')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {EXAMPLES.map((e) => (
              <TableRow key={e.label}>
                <TableCell>{t(`devices.markdown_${e.label}`)}</TableCell>
                <TableCell>
                  <pre style={{ margin: 0, fontFamily: 'monospace' }}>{e.source}</pre>
                </TableCell>
                <TableCell sx={{ '& > :first-child': { mt: 0 }, '& > :last-child': { mb: 0 } }}>
                  <MarkdownView source={e.source} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {t('devices.markdown_safety')}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
