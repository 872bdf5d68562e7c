


def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1):
    pow_1 = torch.ops.aten.pow.Tensor_Scalar(arg0_1, 2)
    mean = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None
    add = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
    rsqrt = torch.ops.aten.rsqrt.default(add);  add = None
    mul = torch.ops.aten.mul.Tensor(arg0_1, rsqrt);  rsqrt = None
    mul_1 = torch.ops.aten.mul.Tensor(mul, arg2_1);  mul = arg2_1 = None
    t = torch.ops.aten.t.default(arg3_1);  arg3_1 = None
    view = torch.ops.aten.view.default(mul_1, [1, 4096])
    mm = torch.ops.aten.mm.default(view, t);  view = t = None
    _unsafe_view = torch.ops.aten._unsafe_view.default(mm, [1, 1, 4096]);  mm = None
    view_1 = torch.ops.aten.view.default(_unsafe_view, [1, 1, 32, 128]);  _unsafe_view = None
    transpose = torch.ops.aten.transpose.int(view_1, 1, 2);  view_1 = None
    t_1 = torch.ops.aten.t.default(arg4_1);  arg4_1 = None
    view_2 = torch.ops.aten.view.default(mul_1, [1, 4096])
    mm_1 = torch.ops.aten.mm.default(view_2, t_1);  view_2 = t_1 = None
    _unsafe_view_1 = torch.ops.aten._unsafe_view.default(mm_1, [1, 1, 1024]);  mm_1 = None
    view_3 = torch.ops.aten.view.default(_unsafe_view_1, [1, 1, 8, 128]);  _unsafe_view_1 = None
    transpose_1 = torch.ops.aten.transpose.int(view_3, 1, 2);  view_3 = None
    t_2 = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
    view_4 = torch.ops.aten.view.default(mul_1, [1, 4096]);  mul_1 = None
    mm_2 = torch.ops.aten.mm.default(view_4, t_2);  view_4 = t_2 = None
    _unsafe_view_2 = torch.ops.aten._unsafe_view.default(mm_2, [1, 1, 1024]);  mm_2 = None
    view_5 = torch.ops.aten.view.default(_unsafe_view_2, [1, 1, 8, 128]);  _unsafe_view_2 = None
    transpose_2 = torch.ops.aten.transpose.int(view_5, 1, 2);  view_5 = None
    slice_1 = torch.ops.aten.slice.Tensor(arg6_1, 0, 1024, 1025);  arg6_1 = None
    slice_2 = torch.ops.aten.slice.Tensor(arg7_1, 0, 1024, 1025);  arg7_1 = None
    mul_2 = torch.ops.aten.mul.Tensor(transpose, slice_1)
    slice_3 = torch.ops.aten.slice.Tensor(transpose, 3, 64, 9223372036854775807)
    neg = torch.ops.aten.neg.default(slice_3);  slice_3 = None
    slice_4 = torch.ops.aten.slice.Tensor(transpose, 3, 0, 64);  transpose = None
    cat = torch.ops.aten.cat.default([neg, slice_4], -1);  neg = slice_4 = None
    mul_3 = torch.ops.aten.mul.Tensor(cat, slice_2);  cat = None
    add_1 = torch.ops.aten.add.Tensor(mul_2, mul_3);  mul_2 = mul_3 = None
    mul_4 = torch.ops.aten.mul.Tensor(transpose_1, slice_1);  slice_1 = None
    slice_5 = torch.ops.aten.slice.Tensor(transpose_1, 3, 64, 9223372036854775807)
    neg_1 = torch.ops.aten.neg.default(slice_5);  slice_5 = None
    slice_6 = torch.ops.aten.slice.Tensor(transpose_1, 3, 0, 64);  transpose_1 = None
    cat_1 = torch.ops.aten.cat.default([neg_1, slice_6], -1);  neg_1 = slice_6 = None
    mul_5 = torch.ops.aten.mul.Tensor(cat_1, slice_2);  cat_1 = slice_2 = None
    add_2 = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
    cat_2 = torch.ops.aten.cat.default([arg1_1, add_2], 2);  arg1_1 = add_2 = None
    cat_3 = torch.ops.aten.cat.default([arg8_1, transpose_2], 2);  arg8_1 = transpose_2 = None
    _scaled_dot_product_cudnn_attention = torch.ops.aten._scaled_dot_product_cudnn_attention.default(add_1, cat_2, cat_3, None, False);  add_1 = cat_2 = cat_3 = None
    getitem = _scaled_dot_product_cudnn_attention[0];  _scaled_dot_product_cudnn_attention = None
    transpose_3 = torch.ops.aten.transpose.int(getitem, 1, 2);  getitem = None
    view_6 = torch.ops.aten.view.default(transpose_3, [1, 1, 4096]);  transpose_3 = None
    t_3 = torch.ops.aten.t.default(arg9_1);  arg9_1 = None
    view_7 = torch.ops.aten.view.default(view_6, [1, 4096]);  view_6 = None
    mm_3 = torch.ops.aten.mm.default(view_7, t_3);  view_7 = t_3 = None
    _unsafe_view_3 = torch.ops.aten._unsafe_view.default(mm_3, [1, 1, 4096]);  mm_3 = None
    add_3 = torch.ops.aten.add.Tensor(arg0_1, _unsafe_view_3);  arg0_1 = _unsafe_view_3 = None
    pow_2 = torch.ops.aten.pow.Tensor_Scalar(add_3, 2)
    mean_1 = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None
    add_4 = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
    rsqrt_1 = torch.ops.aten.rsqrt.default(add_4);  add_4 = None
    mul_6 = torch.ops.aten.mul.Tensor(add_3, rsqrt_1);  rsqrt_1 = None
    mul_7 = torch.ops.aten.mul.Tensor(mul_6, arg10_1);  mul_6 = arg10_1 = None
    t_4 = torch.ops.aten.t.default(arg11_1);  arg11_1 = None
    view_8 = torch.ops.aten.view.default(mul_7, [1, 4096])
    mm_4 = torch.ops.aten.mm.default(view_8, t_4);  view_8 = t_4 = None
    _unsafe_view_4 = torch.ops.aten._unsafe_view.default(mm_4, [1, 1, 14336]);  mm_4 = None
    silu = torch.ops.aten.silu.default(_unsafe_view_4);  _unsafe_view_4 = None
    t_5 = torch.ops.aten.t.default(arg12_1);  arg12_1 = None
    view_9 = torch.ops.aten.view.default(mul_7, [1, 4096]);  mul_7 = None
    mm_5 = torch.ops.aten.mm.default(view_9, t_5);  view_9 = t_5 = None
    _unsafe_view_5 = torch.ops.aten._unsafe_view.default(mm_5, [1, 1, 14336]);  mm_5 = None
    mul_8 = torch.ops.aten.mul.Tensor(silu, _unsafe_view_5);  silu = _unsafe_view_5 = None
    t_6 = torch.ops.aten.t.default(arg13_1);  arg13_1 = None
    view_10 = torch.ops.aten.view.default(mul_8, [1, 14336]);  mul_8 = None
    mm_6 = torch.ops.aten.mm.default(view_10, t_6);  view_10 = t_6 = None
    _unsafe_view_6 = torch.ops.aten._unsafe_view.default(mm_6, [1, 1, 4096]);  mm_6 = None
    add_5 = torch.ops.aten.add.Tensor(add_3, _unsafe_view_6);  add_3 = _unsafe_view_6 = None
    return (add_5,)
    