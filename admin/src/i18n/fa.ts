import type { ConsoleMessages } from './en';

/**
 * Console labels in Persian (right to left). The spec asks for the admin dashboard in Persian
 * and for the user-operation errors in Persian. Polyglot treats Persian as having one plural
 * form, so these strings have no `||||` variants.
 */
export const fa: ConsoleMessages = {
  meshwork: {
    locale: { en: 'English', fa: 'فارسی' },
    auth: {
      checking_session: 'در حال بررسی نشست شما…',
      access_denied_title: 'دسترسی غیرمجاز',
      access_denied: 'دسترسی غیرمجاز است. دسترسی مدیر لازم است.',
      redirecting: 'در حال انتقال به داشبورد شما…',
      go_to_dashboard: 'رفتن به داشبورد',
    },
    dashboard: {
      title: 'داشبورد مدیریت',
      heading: 'کنسول کارکنان مِش‌ورک',
      subtitle: 'مدیریت کاربران، طرح‌های اشتراک، پرداخت‌ها، تحلیل‌ها و مدل‌های هوش مصنوعی.',
      refresh: 'بازخوانی',
      quick_actions: 'دسترسی سریع',
      stats: {
        total_users: 'کل کاربران',
        active_users: 'کاربران فعال',
        inactive_users: 'کاربران غیرفعال',
        load_failed: 'بارگذاری آمار داشبورد ناموفق بود',
      },
      tiles: {
        users: 'جستجو، فعال‌سازی، غیرفعال‌سازی و حذف حساب‌ها.',
        plans: 'طرح‌های اشتراک، قیمت‌ها و محدودیت‌ها.',
        payments: 'پرداخت‌ها، بازپرداخت‌ها و خروجی گرفتن.',
        analytics: 'رشد، درآمد و میزان استفاده از مدل‌ها.',
        models: 'بارگذاری مدل‌های هوش مصنوعی و تعیین طرح‌های مجاز.',
      },
    },
    coming_soon: {
      title: 'به‌زودی',
      body: 'این صفحه هنوز آماده نیست و در نسخه‌های آینده در اینجا قرار می‌گیرد.',
      back: 'بازگشت به داشبورد',
    },
  },
  resources: {
    users: {
      name: 'کاربران',
      show_title: 'کاربر %{name}',
      fields: {
        id: 'شناسه',
        username: 'نام کاربری',
        email: 'ایمیل',
        full_name: 'نام کامل',
        first_name: 'نام',
        last_name: 'نام خانوادگی',
        subscription_plan: 'طرح',
        max_clients: 'حداکثر کلاینت‌ها',
        is_active: 'وضعیت',
        created_at: 'تاریخ عضویت',
        last_login: 'آخرین ورود',
        actions: 'عملیات',
        q: 'جستجو',
      },
      status: { active: 'فعال', inactive: 'غیرفعال' },
      plans: { free: 'رایگان', pro: 'حرفه‌ای', enterprise: 'سازمانی' },
      never: 'هرگز',
      filters: { status: 'وضعیت', all: 'همه', active: 'فعال', inactive: 'غیرفعال' },
      actions: {
        activate: 'فعال‌سازی',
        deactivate: 'غیرفعال‌سازی',
        bulk_menu: 'عملیات گروهی',
        bulk_activate: 'فعال‌سازی انتخاب‌شده‌ها',
        bulk_deactivate: 'غیرفعال‌سازی انتخاب‌شده‌ها',
        bulk_delete: 'حذف انتخاب‌شده‌ها',
        back_to_dashboard: 'بازگشت به داشبورد',
        back_to_list: 'بازگشت به کاربران',
      },
      message: {
        delete_title: 'کاربر %{recordRepresentation} حذف شود؟',
        delete_content: 'حساب حذف می‌شود و همهٔ نشست‌های آن پایان می‌یابد. این عمل قابل بازگشت نیست.',
        bulk_delete_title: '%{smart_count} کاربر حذف شوند؟',
        bulk_delete_content: 'حساب‌های انتخاب‌شده حذف می‌شوند و نشست‌های آن‌ها پایان می‌یابد. این عمل قابل بازگشت نیست.',
      },
      notifications: {
        load_failed: 'بارگذاری کاربران ناموفق بود',
        select_user: 'لطفاً ابتدا حداقل یک کاربر را انتخاب کنید.',
        activated: 'کاربر فعال شد',
        deactivated: 'کاربر غیرفعال شد',
        deleted: 'کاربر حذف شد',
        activate_failed: 'خطا در فعال‌سازی کاربر',
        deactivate_failed: 'خطا در غیرفعال‌سازی کاربر',
        delete_failed: 'خطا در حذف کاربر',
        bulk_activated: '%{smart_count} کاربر فعال شدند',
        bulk_deactivated: '%{smart_count} کاربر غیرفعال شدند',
        bulk_deleted: '%{smart_count} کاربر حذف شدند',
        bulk_update_failed: 'خطا در به‌روزرسانی کاربران انتخاب‌شده',
        bulk_delete_failed: 'خطا در حذف کاربران انتخاب‌شده',
      },
    },
    plans: { name: 'طرح‌های اشتراک' },
    payments: { name: 'پرداخت‌ها' },
    analytics: { name: 'تحلیل‌ها' },
    models: { name: 'مدل‌های هوش مصنوعی' },
  },
};
