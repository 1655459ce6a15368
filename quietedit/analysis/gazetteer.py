"""One-word place names from GeoNames (https://www.geonames.org/, CC BY 4.0):
cities of 100,000 people or more, US states and countries, without the
names that are also German words; ``WORLD_PLACES`` adds the towns of the
countries that write German from 15,000 people (``gazetteer_towns.py``)
(pure data, written by ``bench/places.py``).
"""

from typing import Final

from quietedit.analysis.gazetteer_towns import GERMAN_TOWNS

_NAMES: Final = """
    Aachen Aalborg Abadan Abaetetuba Abakaliki Abakan Abbotsford Abbottabad Abengourou Abeokuta
    Aberdeen Abha Abidjan Abiko Abilene Abobo Abohar Abomey Abomey-Calavi Abuja Abéché Acarigua
    Accra Achalpur Acheng Achinsk Ad-Damazin Ad-Damir Adachi Adana Adelaide Aden Adiwerna
    Admiralteisky Ado-Ekiti Adoni Afghanistan Afyonkarahisar Agadez Agadir Agartala Agege Ageo Agra
    Aguascalientes Ahar Ahilyanagar Ahmedabad Ahuntsic-Cartierville Ahvaz Aihara Aihui Airoli Aizawl
    Aizu-Wakamatsu Ajapnyak Ajax Ajdabiya Ajegunle Ajman Ajmer Akademicheskoe Akashi Akishima Akita
    Akola Akowonjo Akron Aksaray Aktau Aktobe Akure Al-Junaynah Al-Kut Al-Musayab Alabama Alagoinhas
    Alamar Alandur Alanya Alappuzha Alasia Alaska Albacete Albania Albany Alberton Albuquerque
    Alchevsk Alcobendas Alcorcón Aleppo Alexandra Alexandria Aley Algeciras Algeria Algiers Alhambra
    Aliayabiagba Alicante Alimosho Allentown Almaty Almendares Almería Altamira Altona Alvorada
    Alwar Amadora Amagasaki Amaigbo Amanfrom Amarapura Amaravati Amarillo Amasya Ambarnath Ambato
    Ambattur Ambon Ambur Americana Amersfoort Amherst Amiens Amman Ampang Amravati Amreli Amritsar
    Amroha Amsterdam Anaco Anaheim Anand Ananindeua Anantapur Anantnag Anbu Anchorage Anda
    Anderlecht Andijon Andong Andorra Angarsk Angers Angoche Angola Angono Angren Anguilla Ankang
    Ankara Anliu Annaba Anning Anqing Anqiu Anshan Anshun Antakya Antalya Antananarivo Antarctica
    Antioch Antipolo Antofagasta Antsirabe Antsiranana Anyama Anyang Anápolis Aomori Apalit
    Apatzingán Apeldoorn Apopa Apucarana Aqsu Arabkir Aracaju Arad Araguari Araguaína Arakawa
    Arapiraca Arapongas Arar Araraquara Araras Araruama Araucária Araure Araxá Araçatuba Arcahaie
    Archway Arequipa Arezzo Arganzuela Argenteuil Argentina Arica Arifwala Arizona Arjawinangun
    Arkansas Arlington Arlit Armavir Armenia Arnavutköy Arnhem Arrah Arsuz Artux Artëm Aruba Arusha
    Arvada Aryanah Arzamas Asahikawa Asaka Ashaiman Ashdod Ashgabat Ashikaga Ashkelon Asmara Assis
    Assiut Astana Astanajapura Astoria Astrakhan Asunción Atani Atbara Athens Atibaia Atlanta
    Atsiaman Atsugi Atyrau Auckland Augsburg Aurangabad Aurora Austin Australia Austria Avadi
    Avellaneda Avtozavodskyi Awasa Awka Ayacucho Azamgarh Azare Azcapotzalco Azerbaijan Açailândia
    Bacabal Bachuan Bacoor Badajoz Badalona Badin Badlapur Bafoussam Bagaha Bagalkot Bagerhat
    Baghdad Bago Baguio Bahadurgarh Bahamas Baharampur Bahawalnagar Bahawalpur Bahraigh Bahrain
    Bahçelievler Baicheng Baidoa Baise Baisha Baishan Baiyin Bakersfield Baku Bakwa Balakovo
    Balashikha Balasore Balbala Balikpapan Baliuag Balkh Ballarat Ballari Balombo Balsas Baltimore
    Balvanera Bama Bamako Bamenda Bandung Banfora Bangaon Bangkok Bangladesh Bangui Banjar Banjaran
    Banjarbaru Banjarmasin Bannu Banqiao Banyuwangi Baoding Baoji Baoshan Baotou Baqubah Barakaldo
    Baraki Baranagar Baranovichi Barbacena Barbados Barcarena Barcelona Bareilly Bari Bariadi
    Barinas Barishal Barking Barnaul Barquisimeto Barrancabermeja Barranquilla Barreiras Barretos
    Barrie Barshi Barueri Baruta Barysaw Basel Bashan Basildon Basingstoke Basrah Basuo Bata Batam
    Batang Batangas Bataysk Bath Bathinda Batikent Batman Batna Battagram Battambang Batu Batumi
    Baturaja Baubau Bauchi Bauru Bawshar Bayambang Bayamo Bayamón Bayawan Bayugan Bazhong Beaumont
    Becontree Bedford Beed Beersheba Begusarai Beibei Beihai Beijing Beiliu Beining Beipiao Beira
    Beirut Bekasi Belagavi Belarus Belawan Belfast Belgium Belgorod Belgrano Belize Bellevue Bello
    Belém Bemowo Bender Bendigo Benfica Bengaluru Bengbu Benghazi Bengkulu Benguela Beni Benin
    Benoni Benxi Beppu Berazategui Berbera Berbérati Bercham Berdyansk Berezniki Bergamo Bergedorf
    Berkane Berkeley Berlin Bermuda Bern Berrechid Bertoua Besançon Betim Bettiah Bexley Beylikdüzü
    Bhadrak Bhadreswar Bhakkar Bharatpur Bhatara Bhavnagar Bhawana Bhayandar Bhetia Bhilai Bhilwara
    Bhimavaram Bhind Bhisho Bhiwadi Bhiwandi Bhopal Bhubaneswar Bhuj Bhusawal Bhutan Bibirevo Bida
    Bidar Bielany Bielefeld Bielsko-Biala Bijie Bikaner Bilbao Bilbeis Bilimora Billings Bima Bimbo
    Binangonan Bingöl Binjai Bintulu Binzhou Biratnagar Birendranagar Birgañj Birigui Birkenhead
    Birmingham Biryulëvo Bishan Bishkek Bishoftu Biskra Bissau Bitung Biysk Bizerte Biñan Blackburn
    Blackpool Blagoveshchensk Blantyre Blida Blitar Bloemfontein Blumenau Bobo-Dioulasso Bobruysk
    Bochum Bocoio Bogor Bogorodskoye Bogotá Bogra Bohuniya Boise Bokhtar Boksburg Bole Bolivia
    Bologna Bolton Bolu Bolzano Boma Bondoukou Bonon Bontang Borama Bordeaux Borivli Borshchahivka
    Boshan Boston Botad Botshabelo Botswana Bottrop Botucatu Bouaflé Bouaké Boulder
    Boulogne-Billancourt Bournemouth Bouskoura Boyeros Bozhou Bradford Braga Bragança Brahmapur
    Brakpan Brampton Brandon Brantford Brasilandia Brasília Brateyevo Bratislava Bratsk Braunschweig
    Brazil Brazzaville Breda Bremen Bremerhaven Brent Brescia Brest Breves Bridgeport Brighton
    Brisbane Bristol Brits Brno Brooklyn Brovary Brownsville Brugge Brunei Brusque Brussels Bryansk
    Bucaramanga Bucharest Buda Budapest Budaun Budta Buea Buenaventura Buenavista Buffalo Buguma
    Bujumbura Bukama Bukavu Bukhara Bukittinggi Bukoba Bulandshahr Bulaon Bulawayo Bulgaria Bumba
    Bunamwaya Bunda Bunia Bunkyo Buraydah Burayu Burbank Burewala Burgas Burgos Burlington Burnaby
    Burnley Bursa Burundi Busan Bushehr Bushwick Butanta Butembo Butterworth Butuan Buxar Bydgoszcz
    Bytom Béchar Bégoua Béjaïa Büyükçekmece Cabimas Cabinda Cabudare Cabudwaaq Cabuyao Cachoeirinha
    Cacuaco Cadiz Caen Cagliari Cagua Caieiras Cainta Cairns Cairo Cajamarca Calabar Calabozo Calama
    Calamba Calasiao Calgary Cali California Callao Caloocan Calumbo Calumpit Camagüey Camama
    Camaragibe Camayenne Camaçari Cambodia Cambridge Cambé Cameroon Cametá Campeche Campinas Canada
    Canberra Cancún Candelaria Cangaiba Cangzhou Canoas Cap-Haïtien Capas Capiatá Carabanchel
    Caracas Caraguatatuba Carapicuíba Cardiff Cariacica Carletonville Carlsbad Carmona Carnot
    Carolina Carora Carrefour Carrollton Cartagena Cartago Caruaru Cary Carúpano Casablanca Cascavel
    Castanhal Castelar Catacamas Catalão Catamarca Catanduva Catania Catbalogan Catchiungo Caucaia
    Caxias Cazenga Caála Ceilândia Celaya Centennial Centralniy Centurion Cergy-Pontoise Cerro Chad
    Chakwal Chakwama Chalco Chaman Chamartín Chamberí Chandannagar Chandigarh Chandler Chanduasi
    Changchun Changde Changhua Changji Changle Changning Changsha Changshu Changwon Changyi
    Changyuan Changzheng Changzhi Changzhou Chaohu Chaoyang Chaozhou Chapecó Charallave Charleroi
    Charleston Charlotte Charlottenburg Charsadda Chas Chattanooga Chattogram Chatuchak Cheboksary
    Chelmsford Cheltenham Chelyabinsk Chemnitz Chengde Chengdu Chenggu Chenghua Chengqiao
    Chengtangcun Chengzhong Chennai Chenzhou Cheonan Cheras Cheremushky Cherepovets Cherkasy
    Cherkessk Chernihiv Chernivtsi Cherëmushki Chesapeake Chesterfield Chetumal Chhatarpur Chiba
    Chicago Chichawatni Chichicastenango Chiclayo Chico Chicoloapan Chifeng Chigasaki Chihuahua
    Chikusei Chilanzar Chile Chililabombwe Chilliwack Chillán Chilpancingo Chimbote Chimoio China
    Chinandega Chinatown Chinautla Chingola Chiniot Chinju Chipata Chiquimula Chirchiq Chirmiri
    Chishtian Chisinau Chita Chitato Chitradurga Chittoor Chittorgarh Chitungwiza Chizhou Chlef
    Choloma Cholula Chongjin Chongming Chongqing Chongzuo Chorzów Christchurch Chumakivskyi
    Chuncheon Chunga Chungju Chunian Chust Chuxiong Chuzhou Chía Chóngfú Ciamis Ciampea Cianjur
    Cibinong Cienfuegos Cikampek Cikarang Cikupa Cilacap Cilegon Cileungsir Cileunyi Cimahi
    Cincinnati Ciputat Cirebon Citeureup Cixi Cizre Clarksville Clearwater Clermont-Ferrand
    Cleveland Clovis Cluj-Napoca Coacalco Coatepeque Coatzacoalcos Cobán Cochabamba Codó Coimbatore
    Coimbra Colatina Colchester Colima Colina Colombia Colombo Colorado Columbia Columbus Comilla
    Comitán Comoros Conakry Concepcion Concepción Concordia Connecticut Constantine Contagem
    Copacabana Copenhagen Copiapó Coquimbo Coquitlam Cork Coro Coronel Corrientes Cotabato Cotia
    Cotonou Coventry Coyoacán Craiova Crato Crawley Criciúma Croatia Croydon Cuauhtémoc Cuautitlán
    Cuautla Cuba Cubatão Cuddalore Cuenca Cuernavaca Cuiabá Culiacán Cumaná Curacao Curicó Curitiba
    Cursino Curug Cusco Cuttack Cuíto Cypress Cyprus Czechia Córdoba Cúcuta Dabou Dachang Dadu Daegu
    Daejeon Dagenham Dagupan Dajal Dakar Dakhla Dali Dalian Daliang Dallas Daloa Damanhur Damascus
    Damietta Dammam Damoh Dandong Danlí Danshui Daoukro Daqing Darbhanga Darmstadt Darnah Darnytsya
    Dartmouth Darwin Dasha Dasmariñas Datia Datong Datun Daule Daur Davangere Davao Davenport Davie
    Dawei Dawukou Daxing Daye Dayrah Dayton Dazhou Debrecen Deesa Dehradun Dehui Delaware Delhi
    Delicias Delmas Dengzhou Denizli Denmark Denpasar Denton Denver Deoghar Deoli Deoria Depok
    Derbent Derince Desna Desnyanskyi Dessalines Dessie Detroit Dewas Deyang Dezful Dezhou Dhaka
    Dhamtari Dhanbad Dharashiv Dharmavaram Dhaulpur Dhirkot Dhule Diadema Dibrugarh Didao Diepsloot
    Digos Digri Dihok Dijon Dikirnis Dili Dimitrovgrad Dinaig Dinajpur Dinapore Dindigul Dingxi
    Dingzhou Diourbel Divinópolis Divo Dixinn Djelfa Djibouti Dnipro Dniprovskyi Dodoma Doha Dohad
    Doilungdêqên Dokri Dolisie Dombivali Dominica Donaustadt Doncaster Donetsk Dongguan Donghai
    Dongling Dongtai Dongyang Dongying Dordrecht Dortmund Dosquebradas Douala Douliu Dourados Downey
    Drammen Dresden Dubai Dublin Dubréka Dudley Duekoué Duisburg Dumaguete Dumai Dundee Dundo
    Dunedin Dunhua Dunhuang Durban Durg Durgapur Durham Durrës Dushanbe Dusit Duyun Dzerzhinsk
    Düsseldorf Düzce Eastbourne Ebetsu Ebina Ecuador Edinburgh Edirne Edison Edmonton Edogawe Edéa
    Efon-Alaaye Egypt Eimsbüttel Eindhoven Eixample Ejido Ejigbo Ekibastuz Elbasan Eldoret Elgin
    Elista Elizabeth Elmhurst Eluru Emalahleni Eminabad Encheng Engels Enschede Ensenada Enshi
    Entebbe Enterprise Enugu Envigado Epworth Erbil Erebuni Erfurt Eritrea Ermelo Erode Errachidia
    Erzincan Erzurum Escondido Escuintla Esenler Esenyurt Eslamshahr Esmeraldas Esna Espoo Estonia
    Eswatini Etah Ethiopia Etobicoke Etwatwa Eugene Eunápolis Evansville Evaton Everett Exeter
    Ezeiza Ezhou Facatativá Fairfield Faisalabad Fangchenggang Fanling Fargo Faridabad Fatehpur
    Fatih Fayetteville Fendou Fengcheng Fenghuang Fengshan Fengxiang Fergana Ferrara Fianarantsoa
    Fiji Finland Firozpur Florence Florencia Florianópolis Florida Floridablanca Floridsdorf Foggia
    Fontana Fontanar Forlì Formosa Fortaleza Fortechnyi Foshan Foumban Franca Franceville
    Francistown Freetown Freiburg Fremont Fresnillo Fresno Friedrichshain Frisco Fuding Fuencarral
    Fuenlabrada Fujairah Fuji Fujieda Fujimino Fujinomiya Fujisawa Fukuoka Fukushima Fukuyama Fuling
    Fullerton Funchal Funtua Funza Fushun Fuxin Fuyang Fuyu Fuzhou Fürth Gabela Gabon Gaborone Gabès
    Gadag Gadag-Betageri Gagnoa Gainesville Gajuwaka Gama Gambia Gandajika Gandhinagar Gangavati
    Gangneung Gangtok Ganja Ganzhou Gaojing Gaomi Gaoping Gaozhou Gapan Garanhuns Gardez Garissa
    Garland Garut Gashua Gatineau Gaya Gaza Gaziantep Gazipur Gboko Gbongan Gdynia Gebze Geelong
    Geita Gejiu Gelsenkirchen Gemena Geneva Genoa Gent Geoje Georgetown Georgia Gera Gereida Germany
    Germiston Getafe Geylang Ghana Ghardaïa Ghazni Ghotki Ghulja Gibraltar Gifu Gijang Gijón Gilbert
    Gilgit Gillingham Gimcheon Gingoog Ginowan Giresun Girga Giridih Girona Girón Gisenyi Giza
    Glasgow Glazov Glendale Gliwice Gloucester Godhra Godomè Goiânia Gojra Gokalpur Goma Gombe
    Gondal Gonder Gongheyong Gongzhuling Gorakhpur Gorontalo Gothenburg Gqeberha Grajaú Granada
    Gravataí Gravesend Graz Greece Greeley Greenland Greensboro Grenada Grenoble Gresham Grogol
    Groningen Grozny Gràcia Guacara Guadalajara Guadalupe Guadeloupe Guaianases Guam Guanabacoa
    Guanare Guangshui Guangyuan Guangzhou Guankou Guantánamo Guarapari Guarapuava Guaratinguetá
    Guarenas Guarujá Guarulhos Guará Guatemala Guatire Guayaquil Gucun Guelma Guelmim Guelph
    Guernsey Guigang Guiguinto Guilin Guinea Guinea-Bissau Guixi Guiyang Gujangbagh Gujranwala
    Gujrat Guli Gulin Gulu Gumi Guna Gunan Gunpo Gunsan Guntakal Guntur Gunungsitoli Gurugram Gurúè
    Gusau Guwahati Guyana Guyong Guyuan Guédiawaye Gwalior Gwangju Gwangmyeong Gwangyang Gweru
    Gyeongju Gyumri Göttingen Haarlem Habikino Hachinohe Hadano Hadejia Haeju Hafizabad Hagen
    Hagonoy Haicheng Haifa Haikou Hailar Hailin Hailun Haimen Haiphong Haiti Hakodate Haldia
    Haldwani Halifax Hamamatsu Hamburg Hamburg-Mitte Hamburg-Nord Hami Hamilton Hamm Hammamet
    Hammanskraal Hampton Hanam Handa Handan Handeni Hanfeng Hangu Hangzhou Hanjia Hannover Hanoi
    Hanzhong Harar Harare Harbin Harburg Hargeysa Haridwar Harlem Harrow Hartford Harunabad Hasilpur
    Hassan Hatsukaichi Havana Hawaii Hayward Hebi Hebron Hechi Hechuan Hedong Hefei Hegang
    Heidelberg Heihe Heilbronn Hejiang Helsingborg Helsinki Henderson Hengshan Hengshui Hengyang
    Hepo Hepu Hermosillo Herne Heshan Hetauda Heyuan Heze Hezhou Hialeah Higashihiroshima
    Higashikurume Higashimurayama Higashiosaka Hikone Hildesheim Hillsboro Himamaylan Himeji Hindaun
    Hindupur Hino Hinthada Hirakata Hiratsuka Hirnytskyi Hirosaki Hiroshima Hisar Hitachi
    Hitachi-Naka Hlaingthaya Hobart Hohhot Hoima Holguín Hollywood Homs Honduras Honggang Hongkou
    Honmachi Honolulu Hoofddorp Horlivka Horta-Guinardó Hortaleza Hortolândia Hosapete Houston
    Howrah Hrodna Hsinchu Huacheng Huadian Huaibei Huaihua Huainan Huambo Huancayo Huanggang Huangpu
    Huangshan Huangshi Huangzhou Huaraz Huayin Hubballi Huddersfield Huelva Hugli Huicheng Huinong
    Huixing Huixquilucan Huizhou Hulan Huludao Hulunbuir Humen Hungary Huntsville Huocheng Hurghada
    Huzhou Huánuco Hwado Hyderabad Hyesan Ibadan Ibagué Ibanda Ibaraki Ibarra Ibirité Iceland
    Ichalkaranji Ichihara Ichikawa Ichinomiya Ichinoseki Idaho Idlib Ifakara Igarassu Igboho
    Iguatemi Iida Iizuka Ijebu-Igbo Ijero-Ekiti Ijok Ikare Ikeda Ikeja Ikere-Ekiti Ikire Ikirun
    Ikoma Iksan Ilagan Ile-Ife Ilebo Ilesa Ilford Ilhéus Iligan Illinois Ilobu Iloilo Ilorin Imabari
    Imperatriz Imphal Imus Inazawa Incheon Indaiatuba Independence India Indiana Indianapolis
    Indonesia Indore Indramayu Inezgane Inglewood Ingolstadt Ingombota Inisa Inkisi Innsbruck Insein
    Inzai Iowa Ipatinga Ipiranga Ipoh Ipojuca Ipswich Iquique Iquitos Iran Iranshahr Irapuato Iraq
    Irbid Ireland Irewe Iringa Irkutsk Iruma Irvine Irving Irákleion Isahaya Ise-Ekiti Isehara
    Isesaki Iseyin Isfahan Isfara Ishinomaki Isiro Islamabad Islington Ismailia Isparta Israel
    Istanbul Istaravshan Isulan Itabaiana Itabashi Itabira Itaboraí Itabuna Itacoatiara Itaguaí
    Itagüí Itaituba Itajaí Italy Itami Itanhaém Itaperuna Itapetininga Itapevi Itapipoca
    Itaquaquecetuba Itaquera Itatiba Ituiutaba Ituzaingó Ivano-Frankivsk Ivanovo Ivanovskoye Iwaki
    Iwakuni Iwata Iwatsuki Ixtapaluca Izhevsk Izmaylovo Iztacalco Iztapalapa Izumi Izumisano Izumo
    Jabalpur Jabaquara Jacareí Jackson Jacksonville Jacmel Jacobabad Jaffa Jaffna Jagdalpur Jahrom
    Jaigaon Jaipur Jakarta Jalandhar Jalapa Jalgaon Jalingo Jamaica Jammu Jamnagar Jampur Jamshedpur
    Janakpur Jandira Japan Japeri Jaraguá Jaranwala Jataí Jauharabad Jaunpur Jayapura Jaén Jeddah
    Jember Jena Jeongeup Jeonju Jepara Jequié Jerusalem Jessore Jetpur Jhelum Jiading Jiagedaqi
    Jiamusi Jianchang Jiangmen Jiangyin Jiangyou Jianshui Jiaohe Jiaojiang Jiaozhou Jiaozuo Jiashan
    Jiawang Jiaxing Jiayuguan Jiazi Jieshi Jieshou Jieyang Jijel Jijiang Jijiga Jilin Jimeta Jimma
    Jinan Jinchang Jincheng Jinfeng Jingdezhen Jinghong Jingling Jingmen Jingzhi Jingzhou Jinhua
    Jining Jinjiang Jinshan Jinshanlu Jinzhong Jinzhou Jishou Jishu Jiujiang Jiupu Jiuquan Jiutai
    Jiutepec Jixi Jiyuan Jizan Jizhou Jizzax Jodhpur Johannesburg Joinville Joliet Jolo Jombang
    Jomvu Jordan Jorhat Juazeiro Juba Juja Juliaca Jundiaí Jutiapa Jyväskylä Jönköping Kabankalan
    Kabinda Kabul Kabwe Kadapa Kadoma Kaduna Kafrul Kafue Kagoshima Kahama Kaifeng Kaili Kairouan
    Kaithal Kaiyuan Kajang Kajansi Kakamega Kakamigahara Kakegawa Kalaburagi Kalemie Kalemyo
    Kaliningrad Kalininskiy Kalisz Kallakurichi Kallang Kallithéa Kalmiuskyi Kalmunai Kalol Kaluga
    Kalulushi Kalynivskyi Kamagaya Kamakura Kamalia Kamina Kamirenjaku Kamloops Kamoke Kampala
    Kamsar Kamyanske Kamyshin Kananga Kanayannur Kanazawa Kanchipuram Kandy Kangding Kanggye
    Kanhangad Kani Kankan Kanoya Kanpur Kansas Kansk Kaohsiung Kaolack Kapar Kara Karabük Karachi
    Karagandy Karaj Karaman Karamay Karatsu Karawang Karbala Kariega Kariya Karlsruhe Karnaphuli
    Karur Karuri Kasama Kasangati Kasese Kashan Kashgar Kashipur Kashiwa Kashiwara Kassala Kassel
    Kastamonu Kasuga Kasugai Kasukabe Kasulu Kasur Katabi Kathmandu Kati Katihar Katowice Katsina
    Katsushika Katsuta Katumba Kaunas Kawachi-Nagano Kawagoe Kawaguchi Kawanishi Kawasaki Kaya Kayes
    Kayseri Kazakhstan Kazan Kazo Kecskemét Kediri Kedungwuni Keelung Kelar Kelowna Kembangan
    Kemerovo Kendari Kenema Kenitra Kennedy Kent Kentron Kentucky Kenya Kerch Kerman Kermanshah
    Khabarovsk Khammam Khandwa Khanna Khanpur Khanty-Mansiysk Kharagpur Khardah Khargone Kharian
    Kharkiv Khartoum Khasavyurt Khemisset Khenchela Khenifra Khimki Khirdalan Khmelnytskyi Khobar
    Khoroshëvo-Mnevniki Khorramabad Khorramshahr Khouribga Khujand Khulna Khurja Khuzdar Khwisero
    Kiambu Kibaha Kielce Kigali Kigoma Kikolo Kikuyu Kikwit Kilamba Kilis Killeen Kimberley Kimhae
    Kindia Kindrativskyi Kindu Kingston Kinshasa Kipushi Kira Kiribati Kirishima Kirkuk Kirov
    Kisangani Kisaran Kisarazu Kiselëvsk Kishanganj Kishangarh Kishiwada Kisi Kisii Kislovodsk
    Kismayo Kissidougou Kisumu Kitakyushu Kitale Kitami Kitchener Kitengela Kitwe Klaten Klerksdorp
    Kluang Klungkung Knoxville Kobe Koblenz Kochi Kodaira Koforidua Kofu Koga Koganei Kohat Koidu
    Kokshetau Kokubunji Kolda Kolkata Kollam Kolomna Kolpino Kolwezi Komaki Komatsu Kombolcha Konak
    Konibodom Konya Korba Koreatown Korhogo Korla Korolev Korolyov Koronadal Koshigaya Kosovo
    Kostanay Kosti Kostroma Koszalin Kota Kotamobagu Kotri Koudougou Koumassi Kousséri Koutiala
    Kovpakivskyi Kovrov Kowloon Kozhikode Kragujevac Kraków Kramatorsk Krasnodar Krasnogvargeisky
    Krasnoyarsk Krefeld Kremenchuk Kresek Kreuzberg Krishnanagar Kristiansand Kroonstad
    Kropyvnytskyi Krugersdorp Kuantan Kuching Kufa Kukatpally Kulim Kulti Kumagaya Kumamoto
    Kumarapalayam Kumasi Kumba Kumbakonam Kumbo Kunduz Kuningan Kunming Kunri Kunshan Kuntsevo
    Kuopio Kupang Kurashiki Kurgan Kurichchi Kurnool Kursk Kurume Kusatsu Kushinagar Kushiro Kushtia
    Kutaisi Kuwait Kuwana Kwekwe Kyaukpyu Kyauktan Kyengera Kyimyindine Kyiv Kyivskyi Kyoto
    Kyrgyzstan Kyzyl Kyzylorda Köln Kütahya Küçükçekmece Laayoune Labé Ladysmith Lafayette Lafia
    Lafiagi Lagarto Lages Laghouat Lagos Lahore Lahti Laibin Laiwu Laixi Laiyang Laizhou Lajeado
    Lakeland Lakewood Lalitpur Lambaré Lampa Lampang Lancaster Lander Langfang Langley Langsa
    Lansing Lanzhou Lanús Laoag Laohekou Laos Larache Laredo Larkana Lashio Lasnamäe Latacunga
    Latakia Latina Latkrabang Latur Latvia Lausanne Laval Lavras Lawang Layyah Lebanon Lecheng Leeds
    Leeuwarden Leganés Legaspi Legnica Leicester Leipzig Leiria Leiyang Lekki Lembang Lengshuijiang
    Leninsk-Kuznetsky Leshan Lesotho Lethbridge Leuven Leverkusen Lewisville Lexington
    Lexington-Fayette León Lhasa Lhoka Lhokseumawe Lianghu Liangping Lianhe Lianjiang Lianshan
    Lianyungang Liaocheng Liaoyang Liberec Liberia Libertad Libreville Libya Licheng Lichinga
    Lichuan Lida Liechtenstein Lijiang Likasi Lille Lilongwe Lima Limassol Limbe Limeira Limerick
    Limoges Limuru Lincang Lincoln Linfen Linhares Linköping Linqu Linshui Linxi Linyi Linz Lipetsk
    Lisala Lisbon Lishui Lithuania Liupanshui Liuzhi Liuzhou Liverpool Livingstone Livoberezhnyi
    Livorno Lizhi Liège Ljubljana Lleida Lobito Lodhran Logroño Loja Lomé London Londrina Longfeng
    Longgang Longjiang Longjing Longshan Longshui Longueuil Longyan Loni Loudi Louga Louisiana
    Louisville Lowell Luancheng Luanda Luanshya Lubango Lubbock Lublin Lubuklinggau Lubumbashi
    Lucapa Lucena Lucknow Ludhiana Luena Lugazi Luhansk Lumajang Luodian Luohe Luojiang Luoyang
    Lusail Lusaka Lushui Luton Lutsk Luxembourg Luxor Luzhou Luziânia Lviv Lyon Lyubertsy Lyublino
    Lárisa Léogâne Lévis Lübeck Lüliang Maastricht Maba Mabopane Macao Macapá Macau Macaé Maceió
    Machala Macheng Machida Machiques Madagascar Madanapalle Madhavaram Madhyamgram Madinah Madison
    Madiun Madrid Madurai Maebashi Magangué Magdeburg Magelang Magnitogorsk Magé Mahajanga
    Maharagama Maheshtala Mahilyow Maianga Maicao Maidstone Maiduguri Maijdi Mailsi Mainz Maipú
    Mairiporã Majie Makassar Makhachkala Makiyivka Makkah Makumbako Makurdi Malabo Malabon Malacca
    Malakal Malambo Malang Malanje Malappuram Malatia-Sebastia Malatya Malawi Malaysia Malda
    Maldives Maldonado Malegaon Mali Malindi Malingao Malita Malkajgiri Malmö Malolos Malta Maltepe
    Manacapuru Manado Managua Manama Manas Manaus Manchester Mandalay Mandaluyong Mandaqui Mandera
    Mandimba Mandoli Mandsaur Mandurah Mandya Mangalagiri Mangaluru Mango Manhattan Manila Manisa
    Manizales Manjhand Mannheim Manokwari Mansa Mansfield Mansilingan Manta Mantampay Mantilla
    Manzanillo Manzini Manéah Maoming Maputo Marabá Maracaibo Maracanaú Maracay Maradi Maramag Maran
    Marand Maranguape Marbella Marcory Mardan Mardin Marianao Mariara Maricá Marienthal Maringá
    Marituba Mariupol Mariveles Marka Markham Maroua Marrakesh Marseille Martapura Martinique
    Marugame Marvdasht Mary Maryland Maryvale Marzahn Marília Masai Masaka Masan Masaya Mascara
    Maseru Mashhad Masina Masindi Massachusetts Matadi Matagalpa Matanzas Mataram Mataró Mathura
    Mati Matola Matsubara Matsudo Matsue Matsumoto Matsusaka Matsuyama Matuga Maturín Mauritania
    Mauritius Mauá Mawlamyine Maxixe Maykop Mayotte Mazabuka Mazatlán Mazyr Mbaké Mbale Mbandaka
    Mbanza-Ngungu Mbarara Mbeya Mbombela Mbour Mbuji-Mayi Mdantsane Meads Medan Medellín Meerut
    Meguro Meiktila Meishan Meizhou Mejicanos Meknes Melbourne Melitopol Memphis Mendip Mendoza
    Mengmao Mengzi Menongue Mentougou Merauke Merkezefendi Merlo Mersin Mesa Mesquite Messina Mestre
    Metairie Metz Mexicali Mexico Meycauayan Mezhdurechensk Miami Mianwali Mianyang Miass Michigan
    Micronesia Middelburg Middlesbrough Midland Midsayap Milagro Milton Milwaukee Minamirinkan
    Minatitlán Minato Mingachevir Mingaladon Mingora Mingshui Minhang Minna Minneapolis Minnesota
    Minoh Minsk Minya Miraflores Miramar Miri Miryalaguda Mishima Miskolc Misratah Mississauga
    Mississippi Missouri Mito Mitrovicë Mityana Mixco Miyazaki Mlolongo Moanda Mocuba Modakeke
    Modena Modesto Moers Moga Mogadishu Mohali Mohammadpur Mohammedia Mojokerto Mokopane Mokotów
    Mokpo Moldova Mombasa Monaco Moncloa-Aravaca Monclova Mongolia Mongu Monrovia Montana Montenegro
    Monterrey Montería Montevideo Montgomery Montpellier Montreuil Montréal Montserrat Monywa Monza
    Mopti Moratalaz Moratuwa Morelia Morena Moreno Moriguchi Morioka Mormugao Morocco Morogoro Morvi
    Moscow Moshi Mosquera Mossamedes Mossoró Mostaganem Mostar Mosul Motijheel Moundou Mozambique
    Mpanda Mpumalanga Mthatha Mtwara Muar Mubende Mubi Mudanjiang Mufulira Mukalla Mukono Muktsar
    Mulenvos Mulhouse Multan Mulugu Mumbai Munger Munich Muntinlupa Murcia Murfreesboro Muriaé
    Muricay Muridke Murmansk Murom Murrieta Musaffah Musanze Musashino Muscat Mushin Musoma Mutare
    Muzaffargarh Muzaffarnagar Muzaffarpur Mwala Mwanza Mwene Mwene-Ditu Myanmar Myeik Myingyan
    Mykolayiv Mymensingh Mysuru Mytishchi Mzuzu Málaga Médéa Mérida Móstoles Mönchengladbach Mülheim
    Münster Nablus Nacala Nada Nador Naga Nagahama Nagano Nagaoka Nagaon Nagapattinam Nagareyama
    Nagasaki Nagda Nagoya Nagpur Naha Nairobi Naivasha Najaf Najafgarh Nakano Nakhodka Nakuru
    Nalchik Nalgonda Namangan Namibia Nampula Namur Nanbin Nanchang Nanchong Nanchuan Nancun Nancy
    Nanded Nandurbar Nanjin Nanjing Nanning Nanpiao Nanping Nanqiao Nansana Nantes Nantong Nantou
    Nanyang Naperville Naples Narasaraopet Narashino Narayanganj Narela Narita Narmadapuram Narowal
    Narsingdi Nashik Nashville Nasimshahr Nasiriyah Nassau Nasushiobara Natal Natore Nauru
    Navegantes Navoiy Navojoa Navotas Navsari Nawabshah Nazilli Nazran Ndola Nebraska Neftekamsk
    Nefteyugansk Negara Negombo Nehe Neihu Neijiang Neili Neiva Nellore Nepal Nepalgunj Nepean
    Netanya Neukölln Neuquén Neuss Nevada Nevinnomyssk Newark Newcastle Newport Newton Neyagawa
    Neyveli Ngaoundéré Ngong Nguru Niamey Nianbo Nicaragua Nice Nicosia Nigel Niger Nigeria Niigata
    Niihama Niiza Nijmegen Nikopol Nilópolis Nilüfer Nimach Ningbo Ningde Nippes Nishinomiya Nishio
    Niterói Niue Nizhnekamsk Nizhnevartovsk Njeru Nkayi Nkongsamba Nkpor Nnewi Nobeoka Noda Nogales
    Noginsk Noida Norfolk Norilsk Norman Northampton Norwalk Norway Norwich Norzagaray Nottingham
    Nouadhibou Nouakchott Novara Novo-Peredelkino Novocheboksarsk Novocherkassk Novokuybyshevsk
    Novokuznetsk Novomoskovsk Novorossiysk Novosibirsk Novotroitsk Novozavodskyi Nowrangapur
    Noyabrsk Nsukka Ntuzuma Nukus Numazu Nuremberg Nyagatare Nyala Nyingchi Nyzhnodniprovsk
    Nyíregyháza Nzega Nzérékoré Nîmes Oakland Oakville Oaxaca Obalende Obihiro Obninsk Obolon Obuase
    Ocaña Oceanside Ochakovo-Matveyevskoye Odawara Odense Odesa Odessa Odintsovo Offa Offenbach
    Ogbomoso Ohio Okara Okayama Okazaki Okene Okigwe Okinawa Oklahoma Okrika Oktyabrsky Olanchito
    Olathe Oldenburg Oldham Oleksandrivskyi Oleksiyivka Olinda Olmaliq Olongapo Olsztyn Omaha
    Omdurman Omsk Ondjiva Ondo Ongole Onitsha Onomichi Ontario Ooty Opole Oradea Orai Oran Ordos
    Ordu Oregon Orekhovo-Borisovo Orekhovo-Zuyevo Orenburg Orihuela Orizaba Orkney Orlando Orléans
    Ormoc Orsha Orsk Oruro Orël Osaka Osan Osasco Oshawa Oshodi Oslo Osmaniye Osnabrück Osogbo
    Osorno Ostrava Otaru Ottakring Ottawa Ouagadougou Ouahigouya Ouargla Oujda Oulu Ourense Ourinhos
    Oviedo Owerri Oxford Oxnard Oyama Paarl Padalarang Padang Padangsidempuan Paderborn Padua
    Pagadian Pailou Pakistan Pakokku Pakpattan Palakkad Palangkaraya Palau Palembang Palermo Palhoça
    Pallabi Palma Palmas Palmdale Palmira Palopo Paltan Palu Palwal Pamanukan Pamplona Pamulang
    Panabo Panalanoy Panama Panchkula Pandi Pangkalanbuun Pangkalpinang Panguíla Panipat Paniqui
    Panjin Panshan Panvel Panzhihua Paradise Paragominas Paraguay Parakou Paramaribo Paranaguá
    Paraná Parauapebas Parbhani Pare Parelheiros Parepare Parintins Paris Parla Parma Parnamirim
    Parnaíba Parung Pasadena Pasarkemis Pasay Paseh Pasrur Passos Pasto Pasuruan Paterson Pathein
    Patna Pattaya Pattoki Paulista Paulínia Pavlodar Pavlohrad Payakumbuh Pearland Pechersk Pedreira
    Peicheng Pekalongan Pekanbaru Pelabuhanratu Pelentong Pelotas Pemalang Pematangsiantar Pemba
    Pengpu Pengze Pennsylvania Penza Peoria Perbaungan Percut Perdizes Pereira Peristéri Perling
    Perm Perpignan Perth Peru Perugia Pervouralsk Pescara Peshawar Petapa Petare Peterborough
    Petrogradka Petrolina Petropavl Petropavlovsk-Kamchatsky Petrozavodsk Petrópolis Peñalolén
    Pforzheim Phalaborwa Philadelphia Philippines Phoenix Phusro Piacenza Piedecuesta
    Pietermaritzburg Pikine Pimpri Pimpri-Chinchwad Pindamonhangaba Pindiga Pinetown Pingdingshan
    Pingdu Pingliang Pingshan Pingxiang Pinhais Pinsk Piracicaba Piraeus Piranshahr Piraquara
    Pirituba Pisa Pitalito Pitcairn Pithampur Pittsburgh Piura Pizhou Planaltina Plano Plaridel
    Pleiku Plovdiv Plumbon Plymouth Poblacion Podgorica Podolsk Pohang Pointe-Noire Pokhara Poland
    Polokwane Poltava Pomona Ponce Pontianak Popayán Porbandar Porlamar Port-Gentil Portland
    Portmore Porto Porto-Novo Portoviejo Portsmouth Portugal Posadas Potchefstroom Potosí Potsdam
    Pozniaky Prabumulih Prague Praia Prato Prayagraj Presnenskiy Preston Pretoria Pristina Prizren
    Probolinggo Providence Provo Pskov Pucallpa Puchong Pudong Puducherry Pudukkottai Puebla Pueblo
    Pulandian Pulilan Pune Punggol Puning Puno Puqi Puri Purnia Puruliya Purwakarta Purwodadi
    Purwokerto Pushkino Putatan Puthia Putian Putuo Puxi Puyang Pyatigorsk Pyay Pyeongtaek Pyongyang
    Pátra Pécs Pétionville Qalyub Qarchak Qarshi Qatar Qazvin Qianjiang Qiaotou Qibao Qina Qingdao
    Qingnian Qingpu Qingyang Qingyuan Qingzhou Qinhuangdao Qinzhou Qionghai Qiqihar Qitaihe Qods
    Quanzhou Queens Queenstown Queimados Quelimane Queluz Quetta Quetzaltenango Quevedo Quezon
    Quibdó Quilicura Quillacollo Quilmes Quilpué Quito Qujing Qurayyat Quthbullapur Quzhou Québec
    Rabak Rabat Radom Raebareli Raigarh Raipur Rajamahendravaram Rajapalayam Rajshahi Raleigh Ramadi
    Ramagundam Ramenki Ramiros Rancagua Ranchi Randburg Randfontein Ranebennur Rangamati Rangel
    Rangkasbitung Rangpur Rantauprapat Rasht Rawalpindi Rawang Rawson Rayong Reading Recife
    Recklinghausen Regensburg Regina Reims Relizane Remscheid Renca Rengasdengklok Rennes Reno
    Renton Resende Resistencia Retiro Reunion Reus Reutlingen Rewa Reykjavík Reynosa Rialto
    Richardson Richmond Riga Rijeka Rimini Riobamba Riohacha Rionegro Rishra Riverside Rivne Riyadh
    Rize Rizhao Roanoke Robertsonpet Rochester Rockford Rodenkirchen Rodriguez Rohini Rohtak Romania
    Rondonópolis Roodepoort Roorkee Rosario Rosarito Rosetta Roseville Rostock Rotherham Rotterdam
    Rouen Rouiba Rourkela Rubtsovsk Rudnyy Rudrapur Rufisque Rugao Ruiru Ruqi Ruse Russeifa Russia
    Rustaq Rustavi Rustenburg Rutchenkivskyi Rwanda Ryazanskiy Rybinsk Rybnik Rzeszów Saaba Saanich
    Saarbrücken Sabadell Sabanalarga Sabará Sabha Sabzevar Sacaba Sacomã Sacramento Saddiqabad Safi
    Sagamihara Saguenay Saharsa Sahiwal Saidpur Saint-Denis Saint-Louis Saint-Marc Saint-Paul
    Saint-Étienne Sainte-Foy Saitama Sakado Sakai Sakakah Sakata Saki Sakura Salamanca Salaqi
    Salatiga Salavat Salem Salerno Salford Salihli Salinas Salta Saltillo Saltivka Salvador Salzburg
    Salzgitter Salé Samambaia Samara Samarinda Samarkand Sambalpur Sambhal Sambizanga Sambrial Samoa
    Sampit Samsun San-Pédro Sanaa Sanandaj Sancaktepe Sandakan Sangju Sanhe Sanmenxia Sanming Sano
    Sanshui Santana Santander Santarém Santiago Santol Santos Sants-Montjuïc Sanxia Sanya Sapele
    Sapopemba Sapporo Saqqez Sarajevo Sarandi Saransk Saratov Sargodha Sarh Sari Sasebo Saskatoon
    Sasolburg Satara Satna Saugor Saurimo Savannah Savannakhet Savar Sawangan Sayama Saïda
    Schaerbeek Schöneberg Scottsdale Seattle Sebeta Secunderabad Seeb Sehore Sejong Sejoumi Sekondi
    Sekondi-Takoradi Semarang Semey Semnan Sendai Senegal Sengerema Sennar Sentul Seogwipo Seoni
    Seoul Sepang Sepatan Serang Serangoon Serbia Serekunda Seremban Sergeli Serilingampalle
    Serpukhov Serra Sertãozinho Setagaya Setapak Seto Settat Setúbal Sevastopol Severnyy
    Severodvinsk Seversk Sevilla Seychelles Sfax Shabqadar Shache Shagamu Shahdadpur Shahecheng
    Shahkot Shahrisabz Shahrud Shahuwadi Shajing Shakargarh Shakhty Shanghai Shangluo Shangqiu
    Shangrao Shangri-La Shangyu Shangzhi Shanhaiguan Shantou Shanwei Shaoguan Shaoshan Shaowu
    Shaoxing Shaoyang Shaping Sharjah Shashamane Shchukino Shchyolkovo Sheffield Shekhupura
    Shengavit Shenglilu Shenyang Shenzhen Sherbrooke Sherpur Shevchenkivskyi Shevchenko Shibganj
    Shibuya Shihezi Shijiazhuang Shijie Shikarpur Shillong Shilong Shimla Shimonoseki Shimotoda
    Shinagawa Shinjuku Shinyanga Shiqi Shiqiao Shiraz Shivamogga Shivpuri Shiyan Shizuishan Shizuoka
    Sholapur Shomolu Shouguang Shreveport Shuangcheng Shuanglonghu Shuangyashan Shuifu Shuizhai
    Shujaabad Shulin Shunyi Shuozhou Shyamnagar Shymkent Sialkot Sibiu Sibu Sidoarjo Sidon
    Siguatepeque Siguiri Siheungdong Siirt Sikasso Silang Silchar Silifke Siliguri Silopi Simele
    Simferopol Simmering Sincelejo Sinfra Singa Singapore Singaraja Singida Singkawang Singosari
    Singrauli Sinjhoro Sinop Siping Siracusa Sirajganj Sirjan Sirsa Sirte Sitiawan Sittwe Situbondo
    Sivakasi Sivas Siverek Skardu Skikda Skopje Skudai Slough Slovakia Slovenia Slovyansk Smolensk
    Smolyanskyi Soacha Sobral Sochi Sodo Sofia Sogamoso Sohag Sohar Sokodé Sokoto Soledad Solihull
    Solikamsk Solingen Sollentuna Solntsevo Solwezi Somalia Somaroboro Songcheng Songea Songjiang
    Songnan Songyuan Soreang Sorocaba Sorong Sorriso Sorsogon Soshanguve Sosnowiec Soubré Sousse
    Southampton Soweto Soyapango Soyo Spain Split Spokane Springfield Springs Srikakulam Srinagar
    Stamford Standerton Stavanger Stavropol Sterlitamak Stockholm Stockport Stockton Strasbourg
    Strogino Stuttgart Subang Subotica Subulussalam Sucre Sudan Suez Suginami Suicheng Suihua
    Suining Suita Suizhou Sujiatun Sukabumi Sukawati Sukkur Sukrah Sulaymaniyah Suleja Sullana
    Sultanbeyli Sultangazi Sumaré Sumayl Sumbawanga Sumbe Sumedang Sumgayit Sumida Sumy Suncheon
    Sunderland Sungailiat Sunggal Sunnyvale Suqian Surabaya Surakarta Surat Surendranagar Surgut
    Suriname Surprise Surrey Surulere Suruç Sutton Suwon Suzano Suzhou Suzuka Swansea Sweden Swindon
    Switzerland Sydney Sykhiv Syktyvkar Sylhet Syracuse Syria Syzran Szczecin Szeged Székesfehérvár
    Ségou Séguéla Sétif Södermalm Tabora Tabriz Tabuk Tacheng Tachikawa Tacloban Tacna Tacoma
    Tacurong Tadepalligudem Tadpatri Taganrog Taganskiy Taguatinga Taguig Tahoua Taibai Taicang
    Taichung Tainan Taipa Taipei Taiping Taishan Taito Taitung Taiwan Taiyuan Taiz Taizhou
    Tajikistan Tajimi Takamatsu Takaoka Takarazuka Takasaki Takatsuki Takeo Takoradi Talatona Talca
    Talcahuano Taldykorgan Talhar Talisay Tallahassee Tallinn Tama Tamale Tambacounda Tambaram
    Tambov Tampa Tampere Tampico Tandil Tanga Tangail Tangerang Tanggu Tanghe Tangier Tangshan
    Tanjungbalai Tanta Tantou Tanza Tanzania Tanzhou Taonan Taourirt Taoyuan Taozhou Tapachula
    Tarakan Taranto Taraz Targówek Tarija Tarime Tarnów Tarragona Tarsus Tashkent Tasikmalaya Tatuí
    Taubaté Taunggyi Taungoo Taunsa Tauranga Tawau Tayabas Taytay Taza Tbilisi Tebingtinggi Tegal
    Tegucigalpa Tehran Tehuacán Telde Telford Teluknaga Tema Temara Temecula Temirtau Tempe Temuco
    Tengyue Teni Tennessee Tepexpan Tepic Teresina Teresópolis Ternate Terni Ternopil Terrassa
    Terrebonne Tete Texas Teziutlan Thailand Thanjavur Thaton Thembisa Thenali Thessaloníki Thika
    Thiruvananthapuram Thiès Thohoyandou Thoothukudi Thornton Thrissur Thuqbah Tianfu Tianjin
    Tianshui Tiaret Tieli Tieling Tigwav Tijuana Tilburg Timika Timon Tinaquillo Tinsukia Tirana
    Tiraspol Tirmiz Tiruchirappalli Tirunelveli Tirupati Tiruppur Tiruvannamalai Titiwangsa
    Tivaouane Tiébo Tlalnepantla Tlalpan Tlaquepaque Tlemcen Tláhuac Toamasina Tobolsk Tobruk
    Tochigi Tocoa Togo Tokat Tokelau Tokorozawa Tokoza Tokushima Tokuyama Tokyo Toledo Toli-Toli
    Toliara Toluca Tolyatti Tomakomai Tomsk Tonalá Tonga Tongchuan Tongchuanshi Tonghua Tongliao
    Tongling Tongren Tongshan Tongzhou Tonk Toowoomba Topeka Tordher Toride Toronto Torrance Torreón
    Toshima Totonicapán Tottenham Touba Toufen Touggourt Toulon Toulouse Tours Townsville Toyama
    Toyohashi Toyokawa Toyonaka Toyota Trabzon Trento Tri-Cities Trier Trincomalee Trindade Tripoli
    Trois-Rivières Trondheim Troparëvo Trujillo Tsaritsyno Tsentralno-Miskyi Tsentralnyi Tshikapa
    Tshilenge Tsuchiura Tsukuba Tsuruoka Tsuyama Tubarão Tucson Tuguegarao Tula Tulancingo Tulsa
    Tuluá Tumxuk Tunduma Tungi Tungipara Tunis Tunisia Tunja Turgutlu Turhal Turin Turkey Turkistan
    Turkmenistan Turku Turmero Turpan Tuscaloosa Tuvalu Tuxtepec Tuxtla Tuzla Tver Tychy Tyler Tyre
    Tyumen Táriba Tébessa Tétouan Türkmenabat Uberaba Uberlândia Udaipur Udine Udupi Ueda Uganda
    Ugep Ujjain Ukhta Ukraine Ulan-Ude Ulanhot Ulanqab Ulhasnagar Ulsan Uluberiya Ulyanovsk Umarkot
    Umeå Umraniye Umuahia Umuarama Unaizah Ungaran Upata Uppsala Urasoe Urayasu Urdaneta Urganch
    Uromi Ursynów Uruapan Uruguaiana Uruguay Uruma Usera Ussuriysk Ust-Kamenogorsk Utah Utrecht
    Utsunomiya Uvira Uzbekistan Uzhhorod Uíge Vacoas Vadodara Valdivia Valencia Valenzuela Valera
    Valinhos Valladolid Valledupar Vallejo Valparaíso Vancouver Vanderbijlpark Vantaa Vanuatu Vapi
    Varanasi Varginha Varna Vatican Vaughan Vedado Vejalpur Vellore Venezuela Venlo Veracruz
    Vereeniging Verhunskyi Vermont Verona Veshnyaki Vespasiano Viamão Viana Vicenza Victoria
    Victorville Vidisha Vienna Vientiane Vietnam Vigo Vihari Vijayapura Vijayawada Vilkhivskyi
    Villahermosa Villaverde Villavicencio Ville-Marie Villeurbanne Vilnius Vinh Vinnytsya Virginia
    Visakhapatnam Visalia Viseu Vitebsk Vitória Vizianagaram Vladikavkaz Vladimir Vladivostok Vlorë
    Volgodonsk Volgograd Vologda Volzhsky Voronezh Votorantim Vryheid Vyhurivshchyna-Troyeshchyna
    Vykhino-Zhulebino Västerås Waco Wafangdian Wakayama Wakefield Walsall Walthamstow Wandsbek
    Wanning Wansheng Wanxian Wanzhou Warangal Warder Wardha Warren Warri Warrington Warsaw
    Washington Watampone Waterbury Waterloo Watford Watthana Wayaobu Wazirabad Weifang Weihai Weinan
    Weldiya Welkom Wellington Wenchang Wenzhou Weru Westminster Westonaria Whalley Whitby Wichita
    Wiesbaden Wigan Willemstad Wilmersdorf Wilmington Windhoek Windsor Winejok Winnipeg
    Winston-Salem Winterthur Wisconsin Woking Wola Wolfsburg Wollongong Wolverhampton Woodlands
    Worcester Worthing Wuchuan Wuda Wugang Wuhai Wuhan Wuhu Wujiaqu Wuppertal Wushan Wuwei Wuxi
    Wuxue Wuyishan Wuzhishan Wuzhong Wuzhou Wyoming Würzburg Xai-Xai Xiamen Xiangcheng Xiangtan
    Xiangyang Xianning Xiantao Xianyang Xiaogan Xiayang Xiazhen Xichang Xico Xigang Xilinhot
    Xincheng Xindi Xinghua Xingning Xingtai Xingyi Xining Xinji Xinqiao Xintai Xinxiang Xinyang
    Xinyi Xinyu Xinyuan Xinzhai Xinzhou Xiulin Xiuying Xiva Xizhi Xochimilco Xuancheng Xuanhua
    Xuchang Xuhui Xunchang Xuyong Xuzhou Yachiyo Yaizu Yakeshi Yakutsk Yamagata Yamaguchi Yamato
    Yamoussoukro Yanbu Yancheng Yangcheng Yangchun Yanghang Yangjiang Yangju Yangon Yangpu Yangquan
    Yangsan Yangshuo Yangzhou Yanji Yantai Yanzhou Yaoundé Yaritagua Yaroslavl Yasenevo Yautepec
    Yawnghwe Yazd Yekaterinburg Yelahanka Yelets Yemen Yenagoa Yenangyaung Yeoju Yeosu Yerevan
    Yevlakh Yevpatoriya Yezhou Yibin Yichang Yichun Yidu Yinchuan Yingkou Yingtan Yintai Yiwu Yixing
    Yizhou Yogyakarta Yokkaichi Yokohama Yokosuka Yola Yonago Yongchuan Yongji Yongkang Yongzhou
    Yonkers Yono Yopal York Yoshkar-Ola Youkaichi Yuanlin Yuci Yuepu Yueyang Yulin Yuncheng Yunfu
    Yunlong Yunusobod Yushu Yuxi Yuyao Yuzhno-Sakhalinsk Zaanstad Zabrze Zacatecas Zagazig Zagreb
    Zahedan Zama Zambia Zamboanga Zango Zanjan Zanzibar Zaoyang Zaozhuang Zapopan Zaporizhzhya
    Zaragoza Zaria Zarichnyi Zarqa Zawiya Zefta Zelenograd Zemun Zenica Zeytinburnu Zhabei Zhalantun
    Zhanaozen Zhangjiagang Zhangjiajie Zhangjiakou Zhangye Zhangzhou Zhanjiang Zhaodong Zhaoqing
    Zhaotong Zhaoyuan Zhaozhou Zheleznodorozhnyy Zhengding Zhengzhou Zhenjiang Zhenping Zhenzhou
    Zhezqazghan Zhicheng Zhonghe Zhongshan Zhongwei Zhongxiang Zhoucun Zhoukou Zhoushan Zhubei
    Zhucheng Zhuhai Zhuji Zhujing Zhulebino Zhumadian Zhuzhou Zhytomyr Zibo Zigong Ziguinchor
    Zimbabwe Zinder Zipaquirá Zitong Ziyang Zlatoust Zliten Zoetermeer Zomba Zonguldak Zoucheng
    Zugló Zumpango Zunyi Zwolle Zyablikovo Zyuzino Zürich Århus Çanakkale Çankaya Çorlu Çorum
    Ébolowa Ñuñoa Örebro Újpest Ürümqi Üsküdar
    """
WORLD_PLACES: Final = frozenset(_NAMES.split()) | GERMAN_TOWNS
