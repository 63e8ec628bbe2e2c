/* The spec of contracts/triton_conv2d_fwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* convSpec at the lane (b, oc, oh, ow) of group g = pid2: the window's in-bounds products
 * Input[b, g*IGD + c, ih, iw] * Weight[oc, c, h, w], summed in any order (the masked
 * terms are exact zeros, see the contract's header).  `torch_order`: walk the window as
 * torch's definition writes it (channel outermost) -- the same terms, the same value. */
static NUM SPEC(cv_sum)(NCX *cx, const td_case *c, const td_olane *l, int torch_order) {
    cv_dims d;
    cv_get(c, &d);
    int64_t b = l->idx[0], oc = l->idx[1], oh = l->idx[2], ow = l->idx[3], g = l->pid[2];
    int64_t ib = d.is[0] * b + d.is[1] * g * d.IGD, wb = d.ws[0] * oc;
    int64_t n1 = torch_order ? d.IGD : d.KH, n2 = torch_order ? d.KH : d.KW, n3 = torch_order ? d.KW : d.IGD;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    long terms = 0;
    for (int64_t a1 = 0; a1 < n1; a1++)
        for (int64_t a2 = 0; a2 < n2; a2++)
            for (int64_t a3 = 0; a3 < n3; a3++) {
                int64_t h = torch_order ? a2 : a1, w = torch_order ? a3 : a2, ch = torch_order ? a1 : a3;
                int64_t ih = h - d.PH + d.SH * oh, iw = w - d.PW + d.SW * ow;
                if (ih < 0 || ih >= d.IH || iw < 0 || iw >= d.IW) continue; /* zero padding */
                NUM x = N(in)(cx, c, CV_IN, (size_t)(ib + d.is[1] * ch + d.is[2] * ih + d.is[3] * iw));
                NUM y = N(in)(cx, c, CV_W, (size_t)(wb + d.ws[1] * ch + d.ws[2] * h + d.ws[3] * w));
                N(acc_add)(cx, &acc, N(mul)(cx, x, y));
                terms++;
            }
    if (!terms) N(acc_add)(cx, &acc, N(exact)(cx, 0.0)); /* a window wholly in the padding: 0 */
    return N(acc_end)(cx, &acc);
}

static NUM SPEC(cv)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(cv_sum)(cx, c, l, 0); }

/* The intent (docs/intent.md): torch.nn.functional.conv2d's output cell, the sum over the
 * group's input channels and the kernel window of weight times the zero-padded input at
 * (SH*oh + h - PH, SW*ow + w - PW), exact; the output is float32 (no cast to apply). */
static NUM SPEC(cv_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(cv_sum)(cx, c, l, 1); }
