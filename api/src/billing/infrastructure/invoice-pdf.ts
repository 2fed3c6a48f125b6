import PDFDocument from 'pdfkit';
import type { InvoiceParty, InvoiceSeriesEvent } from '../domain/invoice-series.decider';
import { registerInvoiceFonts, write } from './invoice-fonts';

/** An issued invoice with its customer's fields opened (a shredded key leaves them empty). */
export type PrintableInvoice = InvoiceSeriesEvent['data'];

const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN; // A4
const GREY = '#555555';

const money = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const day = (iso: string) => iso.slice(0, 10);

/**
 * One invoice or credit note as a one-page A4 PDF (pdfkit, with embedded faces for names and
 * addresses in any of the scripts invoice-fonts.ts covers): seller and customer, number and
 * dates, the lines, totals with the tax, and the references. The document is a readable
 * stream, already ended: pipe it to a response or collect it.
 */
export function invoicePdf(invoice: PrintableInvoice): PDFKit.PDFDocument {
  const title = invoice.kind === 'credit_note' ? 'CREDIT NOTE' : 'INVOICE';
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${title} ${invoice.number}`, Author: invoice.seller.name, Subject: `${title} ${invoice.number}` },
  });
  registerInvoiceFonts(doc);

  // Header: the seller on the left, what this is on the right.
  write(doc.fontSize(16).fillColor('black'), invoice.seller.name, { weight: 'bold', x: MARGIN, y: MARGIN, width: WIDTH / 2 });
  // The name is the bold line above: the grey block under it is the rest of the seller's details.
  write(doc.fontSize(9).fillColor(GREY), party({ ...invoice.seller, name: '' }), { width: WIDTH / 2 });
  const right = { width: WIDTH / 2, align: 'right' } as const;
  write(doc.fontSize(20).fillColor('black'), title, { ...right, weight: 'bold', x: MARGIN + WIDTH / 2, y: MARGIN });
  write(doc.fontSize(10), `Number: ${invoice.number}`, right);
  write(doc, `Date: ${day(invoice.issuedAt)}`, right);
  if (invoice.credits) write(doc, `Credits invoice: ${invoice.credits}`, right);

  // The customer.
  let y = 170;
  write(doc.fontSize(10).fillColor('black'), 'Bill to', { weight: 'bold', x: MARGIN, y });
  write(doc, party(invoice.customer), { x: MARGIN, y: y + 14, width: WIDTH / 2 });

  // The lines.
  y = Math.max(doc.y, y + 60) + 30;
  const columns = { description: MARGIN, period: MARGIN + 260, amount: MARGIN + WIDTH - 100 };
  write(doc, 'Description', { weight: 'bold', x: columns.description, y });
  write(doc, 'Period', { weight: 'bold', x: columns.period, y });
  write(doc, 'Amount', { weight: 'bold', x: columns.amount, y, width: 100, align: 'right' });
  y += 16;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .strokeColor('#cccccc')
    .stroke();
  for (const line of invoice.lines) {
    y += 8;
    const period = line.periodStart && line.periodEnd ? `${day(line.periodStart)} to ${day(line.periodEnd)}` : '';
    write(doc, line.description, { x: columns.description, y, width: 250 });
    const bottom = doc.y;
    write(doc, period, { x: columns.period, y, width: 130 });
    write(doc, money(line.amountCents), { x: columns.amount, y, width: 100, align: 'right' });
    y = Math.max(bottom, doc.y);
  }
  y += 8;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .stroke();

  // Totals.
  const total = (label: string, cents: number, bold = false) => {
    y += 8;
    const weight = bold ? 'bold' : 'regular';
    write(doc, label, { weight, x: columns.period, y, width: 200 });
    write(doc, `${money(cents)} ${invoice.currency}`, { weight, x: columns.amount - 40, y, width: 140, align: 'right' });
    y = doc.y;
  };
  total('Subtotal', invoice.subtotalCents);
  if (invoice.taxRatePercent > 0) total(`Tax (${invoice.taxRatePercent}%, included)`, invoice.taxCents);
  total(invoice.kind === 'credit_note' ? 'Total credited' : 'Total paid', invoice.totalCents, true);

  // References.
  y += 30;
  write(doc.fontSize(9).fillColor(GREY), `Payment reference: ${invoice.paymentId}`, { x: MARGIN, y, width: WIDTH });
  if (invoice.provider?.number) write(doc, `Stripe invoice: ${invoice.provider.number}`, { width: WIDTH });
  if (invoice.provider?.url) write(doc, invoice.provider.url, { width: WIDTH, link: invoice.provider.url, underline: true });
  doc.moveDown();
  write(
    doc,
    invoice.kind === 'credit_note' ? 'This credit note was refunded to the original payment method.' : 'Paid in full. Thank you.',
    {
      width: WIDTH,
    },
  );
  doc.end();
  return doc;
}

/** The PDF in memory, for a mail's attachment. */
export function invoicePdfBuffer(invoice: PrintableInvoice): Promise<Buffer> {
  const doc = invoicePdf(invoice);
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function party(who: Partial<InvoiceParty>): string {
  return [who.name, who.address, who.country, who.email, who.taxId ? `Tax id: ${who.taxId}` : '']
    .filter((part) => part && part.trim() !== '')
    .join('\n');
}

/** The headers of an invoice's PDF answer: a download named after its number. */
export function pdfHeaders(invoice: PrintableInvoice): Record<string, string> {
  return {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${invoice.number.replace(/[^A-Za-z0-9-]/g, '')}.pdf"`,
    'Cache-Control': 'private, no-store',
  };
}
