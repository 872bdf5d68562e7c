


def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1):
    native_layer_norm = torch.ops.aten.native_layer_norm.default(arg0_1, [768], arg1_1, arg2_1, 1e-05);  arg1_1 = arg2_1 = None
    getitem = native_layer_norm[0];  native_layer_norm = None
    view = torch.ops.aten.view.default(getitem, [1024, 768]);  getitem = None
    t = torch.ops.aten.t.default(arg3_1);  arg3_1 = None
    addmm = torch.ops.aten.addmm.default(arg4_1, view, t);  arg4_1 = view = t = None
    view_1 = torch.ops.aten.view.default(addmm, [1, 1024, 2304]);  addmm = None
    split = torch.ops.aten.split.Tensor(view_1, 768, -1);  view_1 = None
    getitem_3 = split[0]
    getitem_4 = split[1]
    getitem_5 = split[2];  split = None
    view_2 = torch.ops.aten.view.default(getitem_3, [1, 1024, 12, 64]);  getitem_3 = None
    transpose = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None
    view_3 = torch.ops.aten.view.default(getitem_4, [1, 1024, 12, 64]);  getitem_4 = None
    transpose_1 = torch.ops.aten.transpose.int(view_3, 1, 2);  view_3 = None
    view_4 = torch.ops.aten.view.default(getitem_5, [1, 1024, 12, 64]);  getitem_5 = None
    transpose_2 = torch.ops.aten.transpose.int(view_4, 1, 2);  view_4 = None
    _scaled_dot_product_cudnn_attention = torch.ops.aten._scaled_dot_product_cudnn_attention.default(transpose, transpose_1, transpose_2, None, False, 0.0, True);  transpose = transpose_1 = transpose_2 = None
    getitem_6 = _scaled_dot_product_cudnn_attention[0];  _scaled_dot_product_cudnn_attention = None
    transpose_3 = torch.ops.aten.transpose.int(getitem_6, 1, 2);  getitem_6 = None
    view_5 = torch.ops.aten.view.default(transpose_3, [1, 1024, 768]);  transpose_3 = None
    view_6 = torch.ops.aten.view.default(view_5, [1024, 768]);  view_5 = None
    t_1 = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
    addmm_1 = torch.ops.aten.addmm.default(arg6_1, view_6, t_1);  arg6_1 = view_6 = t_1 = None
    view_7 = torch.ops.aten.view.default(addmm_1, [1, 1024, 768]);  addmm_1 = None
    add = torch.ops.aten.add.Tensor(arg0_1, view_7);  arg0_1 = view_7 = None
    native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add, [768], arg7_1, arg8_1, 1e-05);  arg7_1 = arg8_1 = None
    getitem_15 = native_layer_norm_1[0];  native_layer_norm_1 = None
    view_8 = torch.ops.aten.view.default(getitem_15, [1024, 768]);  getitem_15 = None
    t_2 = torch.ops.aten.t.default(arg9_1);  arg9_1 = None
    addmm_2 = torch.ops.aten.addmm.default(arg10_1, view_8, t_2);  arg10_1 = view_8 = t_2 = None
    view_9 = torch.ops.aten.view.default(addmm_2, [1, 1024, 3072]);  addmm_2 = None
    gelu = torch.ops.aten.gelu.default(view_9);  view_9 = None
    view_10 = torch.ops.aten.view.default(gelu, [1024, 3072]);  gelu = None
    t_3 = torch.ops.aten.t.default(arg11_1);  arg11_1 = None
    addmm_3 = torch.ops.aten.addmm.default(arg12_1, view_10, t_3);  arg12_1 = view_10 = t_3 = None
    view_11 = torch.ops.aten.view.default(addmm_3, [1, 1024, 768]);  addmm_3 = None
    add_1 = torch.ops.aten.add.Tensor(add, view_11);  add = view_11 = None
    return (add_1,)
    