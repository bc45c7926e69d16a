//! Integer helpers shared by lowering and the propagators: division rounding
//! down or up, in `i128` so that bounds of products and sums of `i64`
//! values never overflow.

/// `a / b` rounded toward negative infinity (`b != 0`).
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `a / b` rounded toward positive infinity (`b != 0`).
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// The smallest and largest of the four products of two intervals' ends.
pub(crate) fn product_bounds((al, ah): (i128, i128), (bl, bh): (i128, i128)) -> (i128, i128) {
    let p = [al * bl, al * bh, ah * bl, ah * bh];
    (
        p.iter().copied().min().unwrap_or(0),
        p.iter().copied().max().unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_as_named() {
        for a in -9i128..=9 {
            for b in [-4i128, -3, -1, 1, 2, 5] {
                let exact = a as f64 / b as f64;
                assert_eq!(floor_div(a, b), exact.floor() as i128, "{a}/{b}");
                assert_eq!(ceil_div(a, b), exact.ceil() as i128, "{a}/{b}");
            }
        }
        assert_eq!(product_bounds((-2, 3), (-5, 4)), (-15, 12));
    }
}
