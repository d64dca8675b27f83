//! Sharing one character budget among search results.

/// Splits `total` characters among pages of the given lengths, in rank order: each page
/// first has `min_per_page` reserved, then takes what it needs of what remains; a page
/// that needs less leaves its share to the pages after it. Returns each page's allowance.
///
/// ```
/// // 10,000 characters, at least 2,000 each: the short first page leaves its share.
/// assert_eq!(tackle_web::allocate(&[500, 9_000, 9_000], 10_000, 2_000), [6_000, 7_500, 2_000]);
/// ```
pub fn allocate(lengths: &[usize], total: usize, min_per_page: usize) -> Vec<usize> {
    let mut remaining = total;
    let mut out = Vec::with_capacity(lengths.len());
    for (i, &length) in lengths.iter().enumerate() {
        let reserved_for_later = min_per_page.saturating_mul(lengths.len() - i - 1);
        let allowance = remaining.saturating_sub(reserved_for_later).max(min_per_page.min(remaining));
        let used = length.min(allowance);
        out.push(allowance);
        remaining = remaining.saturating_sub(used);
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn short_pages_leave_their_share_to_later_ones() {
        // 10,000 in all, 2,000 at least each: the first may use 6,000 but needs 500.
        assert_eq!(allocate(&[500, 9_000, 9_000], 10_000, 2_000), vec![6_000, 7_500, 2_000]);
        // Everything fits.
        assert_eq!(allocate(&[100, 200], 10_000, 2_000), vec![8_000, 9_900]);
        // Long pages in rank order: the first takes all but the reserves.
        assert_eq!(allocate(&[50_000, 50_000, 50_000], 10_000, 2_000), vec![6_000, 2_000, 2_000]);
        assert_eq!(allocate(&[], 10_000, 2_000), Vec::<usize>::new());
    }

    proptest! {
        /// Pages never use more than the total, and each gets its minimum while the total
        /// allows.
        #[test]
        fn never_more_than_the_total(lengths in prop::collection::vec(0usize..50_000, 0..20), total in 0usize..200_000) {
            let min = 1_000;
            let allowances = allocate(&lengths, total, min);
            let used: usize = lengths.iter().zip(&allowances).map(|(l, a)| (*l).min(*a)).sum();
            prop_assert!(used <= total);
            if total >= min * lengths.len() {
                for allowance in &allowances {
                    prop_assert!(*allowance >= min);
                }
            }
        }
    }
}
